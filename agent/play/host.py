"""The play host: a small Flask app on 127.0.0.1 that leads a person through a session (session.py).

    /                  the job (the hard suite's briefing), how the call panel works, the name, the consent
    /start             (POST) the session starts for that name, once agreed
    /task/<i>          the task's scenario made on the CRM, and the person sent to its page
    /task/<i>/done     where the page's End call leads: the call scored and the next task, or a page
                       saying to end the call first
    /results           the person's results, task by task, with the totals; the session is then over
"""
from __future__ import annotations

from flask import Flask, abort, redirect, render_template, request, url_for

from scenarios.tasks.hard.caller import BRIEFING

from ..results.summary import under_policy
from .session import Session


def create_host(session: Session) -> Flask:
    host = Flask(__name__)

    @host.get("/")
    def start():
        if session.started:
            return redirect(_onward(session))
        return render_template("start.html", briefing=BRIEFING, consent=session.consent, name=session.name,
                               count=len(session.tasks), problem=None)

    @host.post("/start")
    def begin():
        name = request.form.get("name", "")
        problem = session.begin(name, request.form.get("agree") == "yes")
        if problem:
            return render_template("start.html", briefing=BRIEFING, consent=session.consent, name=name,
                                   count=len(session.tasks), problem=problem), 400
        return redirect(_onward(session))

    @host.get("/task/<int:index>")
    def task(index: int):
        _check(session, index)
        return redirect(session.open_task(index))

    @host.get("/task/<int:index>/done")
    def done(index: int):
        _check(session, index)
        if not session.finish_task(index):
            return render_template("end_call_first.html", page=session.tasks[index].page,
                                   number=index + 1), 409
        return redirect(_onward(session))

    @host.get("/results")
    def results():
        if not session.started or session.next_task() is not None:
            return redirect(_onward(session))
        response = host.make_response(render_template("results.html", **results_of(session)))
        response.call_on_close(session.finished.set)  # the command stops serving once this page is out
        return response

    return host


def _check(session: Session, index: int) -> None:
    if not session.started:
        abort(redirect(url_for("start")))
    if not 0 <= index < len(session.tasks):
        abort(404)


def _onward(session: Session) -> str:
    if not session.started:
        return url_for("start")
    following = session.next_task()
    return url_for("results") if following is None else url_for("task", index=following)


def results_of(session: Session) -> dict:
    """What the results page shows: a row per task (its verdicts and why), and the totals."""
    rows = []
    for number, task in enumerate(session.tasks, 1):
        t = task.trajectory
        m = t.metrics
        rows.append({"number": number, "task": t.task, "seed": t.seed, "success": bool(m.get("success")),
                     "state_ok": m.get("state_ok"), "said_ok": m.get("said_ok"),
                     "verified_first": m.get("verified_first"), "under_policy": under_policy(t),
                     "violations": m.get("policy_violations", 0), "transferred": m.get("transferred"),
                     "reason": (m.get("state_check") or {}).get("reason", ""), "seconds": t.seconds})
    return {"name": session.person["name"], "rows": rows, "folder": session.run.out,
            "totals": {"tasks": len(rows), "succeeded": sum(r["success"] for r in rows),
                       "under_policy": sum(r["under_policy"] for r in rows),
                       "violations": sum(r["violations"] for r in rows),
                       "seconds": round(sum(r["seconds"] for r in rows), 1)}}

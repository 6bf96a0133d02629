// The Knowledge base screen (the expert suite's CRM, in place of the Policy page): search the
// articles and the scenario's bulletins (GET /api/kb/search), choose one of the ranked results
// (radios of one named field, like the booking matches, so choosing is recorded as a fill) and open
// it (GET /api/kb/articles/<id>): its title, effective date, body and, when a newer article replaced
// it, which one did and a button to open it.
import { api } from "../api.js";
import { apiValues, clearErrors, fieldRadio, showApiError, showFormError } from "../fields.js";
import { renderMarkdown } from "../markdown.js";
import { register, screen } from "../router.js";
import { onSubmit, whileBusy } from "../submitting.js";
import { showChoices } from "./bookingsearch.js";
import { byTestid, cls, tid, word } from "../vocabulary.js";

const FIELD = "kb-result";
const root = () => screen("kb");
const part = (selector) => root().querySelector(selector);
const shown = { supersededBy: null };

export function initKnowledgeBase() {
  if (!root()) return;  // a page without the knowledge base
  onSubmit(part("[data-kb-search]"), search);
  const open = part(byTestid("kb-open"));
  open.addEventListener("click", () => whileBusy(open, openChosen));
  const newer = part(byTestid("kb-superseded-by"));
  newer.addEventListener("click", () => whileBusy(newer, () => openArticle(shown.supersededBy)));
  register("kb", () => clearErrors(root()));
}

async function search(form) {
  clearErrors(root());
  try {
    showResults((await api.searchKnowledgeBase(apiValues(form).q || "")).results);
  } catch (err) {
    showResults(null);
    showApiError(root(), "kb", err);
  }
}

// The results with Open article under them, "No articles found", or (null) nothing.
function showResults(results) {
  showChoices(part("[data-kb-results]"), part("[data-kb-open]"), results, word(FIELD, "Choose an article"),
              "No articles found", resultOption);
}

// A result's title (and "superseded" when replaced) and id, with its snippet, the matched words marked.
function resultOption(result) {
  const radio = fieldRadio(FIELD, result.id);
  const title = `${result.title}${result.superseded_by ? " (superseded)" : ""}`;
  radio.setAttribute("aria-label", `${title} — ${result.id}`);
  const label = document.createElement("label");
  const heading = document.createElement("strong");
  heading.textContent = title;
  const id = document.createElement("span");
  id.className = cls("muted");
  id.textContent = ` — ${result.id}`;
  const snippet = document.createElement("span");
  snippet.className = cls("muted");
  snippet.append(...boldParts(result.snippet));
  label.append(radio, " ", heading, id, document.createElement("br"), snippet);
  return label;
}

// "a **word** b" as text nodes and <mark> elements, never parsed as HTML.
function boldParts(text) {
  return text.split("**").map((piece, index) => {
    if (index % 2 === 0) return document.createTextNode(piece);
    const mark = document.createElement("mark");
    mark.textContent = piece;
    return mark;
  });
}

async function openChosen() {
  const chosen = root().querySelector(`input[data-field="${tid(FIELD)}"]:checked`);
  clearErrors(root());
  if (!chosen) return showFormError(root(), "kb", "Choose an article");
  return openArticle(chosen.value);
}

async function openArticle(id) {
  clearErrors(root());
  try {
    showArticle((await api.readArticle(id)).article);
  } catch (err) {
    showApiError(root(), "kb", err);
  }
}

function showArticle(article) {
  const view = part("[data-kb-article]");
  view.hidden = false;
  part(byTestid("kb-article-title")).textContent = article.title;
  part(byTestid("kb-article-effective")).textContent = `Effective ${article.effective}`;
  shown.supersededBy = article.superseded_by;
  part("[data-kb-superseded]").hidden = !article.superseded_by;
  part("[data-kb-newer]").textContent = article.superseded_by || "";
  part(byTestid("kb-article-body")).replaceChildren(...renderMarkdown(article.body));
  view.scrollIntoView?.({ block: "nearest" });
}

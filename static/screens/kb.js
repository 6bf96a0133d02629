// The Knowledge base screen (the expert suite's CRM, in place of the Policy page): search the
// articles and the scenario's bulletins (GET /api/kb/search), choose one of the ranked results
// (radios of one named field, like the booking matches, so choosing is recorded as a fill) and open
// it (GET /api/kb/articles/<id>): its title, effective date, body and, when a newer article replaced
// it, a button to the one in force.
import { api } from "../api.js";
import { apiValues, clearErrors, showApiError, showFormError } from "../fields.js";
import { renderMarkdown } from "../markdown.js";
import { register, screen } from "../router.js";
import { onSubmit, whileBusy } from "../submitting.js";
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
  const list = part("[data-kb-results]");
  part("[data-kb-open]").hidden = !results?.length;
  if (!results) return list.replaceChildren();
  if (!results.length) return list.replaceChildren(status("No articles found"));
  const group = document.createElement("fieldset");
  group.className = cls("matches");
  const legend = document.createElement("legend");
  legend.textContent = word(FIELD, "Choose an article");
  group.append(legend, ...results.map(resultOption));
  return list.replaceChildren(group);
}

function status(text) {
  const note = document.createElement("p");
  note.setAttribute("role", "status");
  note.textContent = text;
  return note;
}

// A result's title (and "superseded" when replaced), with its snippet, the matched words in bold.
function resultOption(result) {
  const radio = document.createElement("input");
  radio.type = "radio";
  radio.name = tid(FIELD);
  radio.value = result.id;
  radio.dataset.field = tid(FIELD);
  radio.dataset.testid = `${tid(FIELD)}-${result.id}`;
  const title = `${result.title}${result.superseded_by ? " (superseded)" : ""}`;
  radio.setAttribute("aria-label", title);
  const label = document.createElement("label");
  const heading = document.createElement("strong");
  heading.textContent = title;
  const snippet = document.createElement("span");
  snippet.className = cls("muted");
  snippet.append(...boldParts(result.snippet));
  label.append(radio, " ", heading, document.createElement("br"), snippet);
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
  part(byTestid("kb-superseded-by")).textContent = article.superseded_by
    ? `${word("kb-superseded-by", "Superseded by")}: ${article.superseded_by}` : "";
  part(byTestid("kb-article-body")).replaceChildren(...renderMarkdown(article.body));
  view.scrollIntoView?.({ block: "nearest" });
}

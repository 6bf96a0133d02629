// The page's UI variant (crm_app/ui_variants): in a variant other than 0 the server renames every
// id, data-testid and class and gives the tables back in the page's JSON, with the words the scripts
// write and how flights are shown. Scripts name elements by their semantic names through tid(),
// and events report semantic() names, so scoring never sees a variant's tokens.
const page = JSON.parse(document.querySelector("script[data-ui-page]")?.textContent || "{}");
const semanticOf = page.names || {};
const tokenOf = Object.fromEntries(Object.entries(semanticOf).map(([token, name]) => [name, token]));

// A semantic name's token on this page (the name itself in variant 0).
export function tid(name) {
  return tokenOf[name] ?? name;
}

// An element's semantic name from its token.
export function semantic(token) {
  return semanticOf[token] ?? token;
}

export function byTestid(name) {
  return `[data-testid="${tid(name)}"]`;
}

// A class's token on this page (the class itself in variant 0), and a selector of it.
export function cls(name) {
  return page.classes?.[name] ?? name;
}

export function byClass(name) {
  return `.${cls(name)}`;
}

// The variant's text for a key of crm_app/ui_variants/wording.py SCRIPT_WORDS.
export function word(key, plain) {
  return page.words?.[key] ?? plain;
}

// Flights as a "table", "cards" or a "list", in order of "departure" or of "price".
export const flightLayout = { results: page.results || "table", sort: page.sort || "departure" };

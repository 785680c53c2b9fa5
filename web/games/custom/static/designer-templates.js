// Templates of the custom-game designer: the shipped ones (the custom game's
// static/templates.json) and the host's own, kept in this browser's localStorage under
// "my templates" and moved between devices as a downloaded file.
import { download } from "/static/js/common.js";

const KEY = "dealerroom: my templates";
const SHIPPED_URL = "/games/custom/static/templates.json";
const MAX_FILE = 256 * 1024; // bytes: far more than 100 designs of 8 fields
const MAX_MINE = 100;
const MAX_NAME = 80;
const MAX_DESCRIPTION = 1000;

/** The templates that ship with the service: [{name, description, options}]. */
export async function shippedTemplates() {
  const answer = await fetch(SHIPPED_URL, { headers: { Accept: "application/json" } });
  if (!answer.ok) throw new Error(`the shipped templates did not load (the site answered HTTP ${answer.status})`);
  return answer.json();
}

/**
 * A list of templates checked for shape; ``where`` names its source in the error.
 * :throws Error: naming the first template that is wrong.
 */
function checked(list, where) {
  if (!Array.isArray(list)) throw new Error(`${where} does not hold a list of templates.`);
  if (list.length > MAX_MINE) throw new Error(`${where} holds ${list.length} templates; at most ${MAX_MINE} are kept.`);
  return list.map((item, n) => {
    const at = `${where}, template ${n + 1}`;
    if (!item || typeof item !== "object" || Array.isArray(item)) throw new Error(`${at} is not a template.`);
    const name = typeof item.name === "string" ? item.name.trim() : "";
    if (name === "" || name.length > MAX_NAME) throw new Error(`${at} needs a name of 1 to ${MAX_NAME} characters.`);
    const description = item.description === undefined ? "" : item.description;
    if (typeof description !== "string" || description.length > MAX_DESCRIPTION) {
      throw new Error(`${at} (${name}) has a description that is not text of at most ${MAX_DESCRIPTION} characters.`);
    }
    if (!item.options || typeof item.options !== "object" || Array.isArray(item.options)) {
      throw new Error(`${at} (${name}) has no design.`);
    }
    return { name, description, options: item.options };
  });
}

/** The host's own templates in this browser (an unreadable store counts as none). */
export function myTemplates() {
  try {
    return checked(JSON.parse(localStorage.getItem(KEY) || "[]"), "This browser's store");
  } catch (e) {
    return [];
  }
}

function keep(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch (e) {
    throw new Error("This browser would not keep the template (its storage is full or switched off); download it instead.");
  }
}

/** Keep ``template`` among mine, replacing one of the same name; returns the new list. */
export function saveMine(template) {
  const [made] = checked([template], "The template");
  const list = myTemplates().filter((t) => t.name !== made.name);
  if (list.length >= MAX_MINE) throw new Error(`At most ${MAX_MINE} templates are kept; delete one first.`);
  list.push(made);
  keep(list);
  return list;
}

/** Forget my template called ``name``; returns the new list. */
export function deleteMine(name) {
  const list = myTemplates().filter((t) => t.name !== name);
  keep(list);
  return list;
}

/** Offer my templates as a file to keep or to upload on another device. */
export function downloadMine() {
  download("dealerroom-my-templates.json", { templates: myTemplates() });
}

/**
 * Add the templates of an uploaded file (one of ours, or a bare list) to mine, replacing
 * those of the same name; returns [the new list, how many came].
 * :throws Error: saying what is wrong with the file.
 */
export async function uploadMine(file) {
  if (file.size > MAX_FILE) throw new Error(`The file is ${Math.ceil(file.size / 1024)} KB; a file of templates is at most ${MAX_FILE / 1024} KB.`);
  let parsed;
  try {
    parsed = JSON.parse(await file.text());
  } catch (e) {
    throw new Error(`The file "${file.name}" is not a file of templates (it is not JSON).`);
  }
  const came = checked(Array.isArray(parsed) ? parsed : parsed && parsed.templates, `The file "${file.name}"`);
  const names = new Set(came.map((t) => t.name));
  const list = [...myTemplates().filter((t) => !names.has(t.name)), ...came];
  if (list.length > MAX_MINE) throw new Error(`With this file there would be ${list.length} templates; at most ${MAX_MINE} are kept.`);
  keep(list);
  return [list, came.length];
}

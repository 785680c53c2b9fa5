// The designer's templates panel: start from a shipped template or one of mine, save the
// design as a template, delete one of mine, download mine as a file and upload such a file.
import { say } from "/static/js/common.js";
import { el } from "/static/js/room-controls.js";
import { errorSlot } from "/static/js/new-options.js";
import { deleteMine, downloadMine, myTemplates, saveMine, shippedTemplates, uploadMine } from "./designer-templates.js";

/** Draw the templates panel of ``designer`` into the fieldset ``box``. */
export function renderTemplates(box, designer) {
  let shipped = [];
  const picker = el("select", { id: "d-template", "aria-describedby": "d-template-help d-template-error" });
  const about = el("p", { id: "d-template-help", className: "small help" });
  const use = el("button", { type: "button", id: "d-use", textContent: "Start from this template" });
  const drop = el("button", { type: "button", id: "d-delete", textContent: "Delete this template", hidden: true });
  const status = el("p", { id: "d-templates-status", className: "small", "aria-live": "polite" });

  const chosen = () => {
    const [where, n] = picker.value.split(":");
    const list = where === "mine" ? myTemplates() : shipped;
    return [where, list[Number(n)]];
  };
  const fill = (select = picker.value) => {
    picker.replaceChildren();
    for (const [where, label, list] of [["shipped", "Shipped with dealerroom", shipped], ["mine", "My templates (in this browser)", myTemplates()]]) {
      if (list.length === 0) continue;
      const group = el("optgroup", { label });
      list.forEach((t, n) => group.append(el("option", { value: `${where}:${n}`, textContent: t.name })));
      picker.append(group);
    }
    if ([...picker.options].some((o) => o.value === select)) picker.value = select;
    describe();
  };
  const describe = () => {
    const [where, template] = chosen();
    say(about, template ? template.description || "No description." : "");
    drop.hidden = where !== "mine" || !template;
    use.disabled = !template;
  };
  picker.addEventListener("change", describe);
  use.addEventListener("click", () => {
    const [, template] = chosen();
    if (!template) return;
    designer.load(template.options);
    say(status, `Started from "${template.name}". Change anything below.`, "ok");
  });
  drop.addEventListener("click", () => {
    const [, template] = chosen();
    if (!template || !window.confirm(`Delete your template "${template.name}" from this browser?`)) return;
    try {
      deleteMine(template.name);
      fill("shipped:0");
      say(status, `Deleted "${template.name}".`, "ok");
    } catch (e) {
      say(status, e.message, "bad");
    }
  });

  // Saving the design as a template of mine.
  const name = el("input", { id: "d-save-name", maxLength: 80, autocomplete: "off", "aria-describedby": "d-save-name-error" });
  const description = el("textarea", { id: "d-save-description", rows: 2, maxLength: 1000 });
  const save = el("button", { type: "button", id: "d-save", textContent: "Save this design as a template" });
  save.addEventListener("click", () => {
    say(document.getElementById("d-save-name-error"), "");
    const { options, errors } = designer.refresh();
    const fail = (message) => say(document.getElementById("d-save-name-error"), message, "bad");
    if (name.value.trim() === "") return fail("Give the template a name.");
    if (errors.length > 0) return fail("Fix the settings marked below first: a template is a design that works.");
    try {
      const list = saveMine({ name: name.value.trim(), description: description.value.trim(), options });
      fill(`mine:${list.findIndex((t) => t.name === name.value.trim())}`);
      say(status, `Saved "${name.value.trim()}" in this browser, under My templates.`, "ok");
    } catch (e) {
      fail(e.message);
    }
  });

  // Moving mine between devices.
  const down = el("button", { type: "button", id: "d-download", textContent: "Download my templates" });
  down.addEventListener("click", () => {
    if (myTemplates().length === 0) say(status, "You have no templates of your own yet: save one first.", "bad");
    else downloadMine();
  });
  const up = el("input", { type: "file", id: "d-upload", accept: "application/json,.json", "aria-describedby": "d-upload-error" });
  up.addEventListener("change", async () => {
    const file = up.files && up.files[0];
    say(document.getElementById("d-upload-error"), "");
    if (!file) return;
    try {
      const [list, came] = await uploadMine(file);
      fill(`mine:${list.length - 1}`);
      say(status, `Added ${came} template${came === 1 ? "" : "s"} from "${file.name}" under My templates.`, "ok");
    } catch (e) {
      say(document.getElementById("d-upload-error"), e.message, "bad");
    }
    up.value = "";
  });

  box.append(
    el("legend", { textContent: "Templates" }),
    el("label", { htmlFor: "d-template", textContent: "Start from a template" }), picker, about, errorSlot("d-template"),
    el("p", { className: "actions" }, use, " ", drop),
    el("details", { className: "d-save" },
      el("summary", { textContent: "Save this design as a template" }),
      el("label", { htmlFor: "d-save-name", textContent: "Template name" }), name, errorSlot("d-save-name"),
      el("label", { htmlFor: "d-save-description", textContent: "Description (optional): how the game plays, in a paragraph" }), description,
      el("p", { className: "actions" }, save)),
    el("details", { className: "d-move" },
      el("summary", { textContent: "Use my templates on another device" }),
      el("p", { className: "small", textContent: "Your templates are kept in this browser only. Download them as a file and upload the file in another browser." }),
      el("p", { className: "actions" }, down),
      el("label", { htmlFor: "d-upload", textContent: "Upload a file of templates" }), up, errorSlot("d-upload")),
    status,
  );
  fill();
  shippedTemplates().then((list) => {
    shipped = list;
    fill("shipped:0");
  }).catch((e) => say(document.getElementById("d-template-error"), e.message, "bad"));
}

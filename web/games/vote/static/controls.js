// The vote's dealer-room controls: one button per candidate, named by the candidate.

export function pickControls(root, ctx) {
  const legal = ctx.room.me.legal || [];
  const current = ctx.room.me.current_pick && ctx.room.me.current_pick.pick;
  const group = ctx.el("div", { className: "choices", role: "group", "aria-label": "Candidates" });
  const buttons = [];
  const pick = (button, vote) => {
    for (const b of buttons) b.setAttribute("aria-pressed", String(b === button));
    ctx.choose({ vote }, `You vote for ${vote}.`);
  };
  for (const { vote } of legal) {
    const button = ctx.el("button", { type: "button", className: "choice", textContent: vote, "aria-pressed": "false" });
    button.addEventListener("click", () => pick(button, vote));
    buttons.push(button);
    group.append(button);
    if (current && current.vote === vote) pick(button, vote);
  }
  root.append(ctx.el("p", { className: "small", textContent: "Tap the candidate you vote for." }), group);
}

// What the player is to decide now, said in the message box, with the decisions that cannot
// wait (charge or hold, the next placement) as buttons with their keys: the page never waits
// without saying for what.

// The prompt for the side to move: {message: {text, kind}, buttons: [{text, action, key, id}],
// marks}. `status`, `legal` and `state` are the protocol's; `unitAt(hex)` names the unit on a
// hex and `sideOf(id)` a unit's side.
export function decisionPrompt(status, legal, state, unitAt, sideOf) {
  const who = `${status.side}, ${status.phase} phase`;
  const charges = legal.filter((a) => a.action.type === "charge");
  const hold = legal.find((a) => a.action.type === "hold");
  const canEnd = legal.some((a) => a.text === "end");
  const chargeButton = (a, i) => ({
    text: `${unitAt(a.action.from)} charges ${unitAt(a.action.to)}`, action: a.text,
    key: i === 0 ? "C" : "", id: i === 0 ? "prompt-charge" : undefined,
  });
  const prompt = (text, buttons = [], marks = null) => ({ message: { kind: "prompt", text },
    buttons, marks });
  if (status.phase === "setup") {
    const hexes = legal.filter((a) => a.action.type === "place").map((a) => ({ hex: a.action.to }));
    const next = state.units.find((u) => u.flags.includes("awaiting_setup") &&
      sideOf(u.id) === status.side);
    return prompt(`Set-up (${status.side}): click a marked hex of your zone to place ` +
      `${next ? next.id : "the next unit"} (S-2, S-3).`, [], [{ kind: "reach", hexes }]);
  }
  if (hold && !canEnd) {
    const cavalry = state.charge_window || hold.action.unit;
    return prompt(`${cavalry}'s step draws reaction fire: charge first, or hold and take the ` +
      `fire (MV-CHG-5, F-REACT-6). End phase waits for this decision.`,
    [...charges.map(chargeButton), { text: `${cavalry} holds`, action: hold.text, key: "H",
      id: "prompt-hold" }]);
  }
  if (!canEnd) {
    return prompt(`Your decision (${who}): one of the buttons below.`,
      legal.slice(0, 8).map((a) => ({ text: a.text, action: a.text })));
  }
  if (charges.length) {
    return prompt(`Your move (${who}). Cavalry in contact may charge (MV-CHG-5): a button ` +
      `below, or go on.`, charges.map(chargeButton));
  }
  return { message: { kind: "info", text: `Your move (${who}): click a unit, or End ${status.phase} (E).` },
    buttons: [], marks: null };
}

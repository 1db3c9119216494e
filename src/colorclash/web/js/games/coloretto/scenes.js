// The dev page's Coloretto scenes (dev.html?scene=coloretto…): real engine views and
// events of positions worth looking at, written by scripts/coloretto_dev_scenes.py.
const PEOPLE = [
  { kind: "human", name: "Ana", connected: true },
  { kind: "bot", name: "Computer", label: "Computer", level: "medium", connected: true },
  { kind: "human", name: "Çağla Yıldırım", connected: true },
  { kind: "human", name: "Bo", connected: false, away_since: 1 },
  { kind: "bot", name: "Computer", label: "Computer", level: "hard", connected: true },
];

function room(view, status) {
  const n = view.seats;
  // the viewer is always a person: seat them where the view says
  const order = [...PEOPLE.slice(0, n)];
  if (order[view.seat] && order[view.seat].kind !== "human") [order[0], order[view.seat]] = [order[view.seat], order[0]];
  return {
    code: "KMPXRA",
    kind: "private",
    status,
    host: view.seat,
    link: "/r/KMPXRA",
    game: "coloretto",
    settings: { preset: "standard", seats: n, scoring: view.scoring_side, clock: 30 },
    seats: order.map((s, i) => ({ seat: i, ready: true, substitute: false, ...s })),
    match: 1,
  };
}

export async function loadScenes() {
  const res = await fetch(new URL("./scenes.json", import.meta.url));
  const data = await res.json();
  const scenes = {};
  for (const [name, s] of Object.entries(data)) {
    const over = s.view.phase === "game_over";
    scenes[name] = () => ({
      screen: "table",
      view: s.view,
      room: room(s.view, over ? "finished" : "playing"),
      me: s.view.seat,
      events: s.events,
      clock: over || s.view.turn === null ? null : { kind: "turn", seat: s.view.turn, remaining_ms: 21000, seconds: 30 },
    });
  }
  scenes["coloretto-rules"] = () => ({ ...scenes.coloretto(), rules: "standard" });
  scenes["coloretto-leave"] = () => ({ ...scenes["coloretto-place"](), leave: true });
  scenes["howto-coloretto"] = () => ({ screen: "howto", game: "coloretto", preset: "standard" });
  scenes["coloretto-room"] = () => ({ screen: "room", room: { ...room(data.coloretto.view, "lobby"), seats: room(data.coloretto.view, "lobby").seats.map((x, i) => (i === 4 ? { seat: 4, kind: "empty", name: null, connected: false, ready: false } : x)) }, me: 0 });
  return scenes;
}

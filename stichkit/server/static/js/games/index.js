// The games' renderers, by the engine's game name.

import coiffeur from "./coiffeur.js";
import differenzler from "./differenzler.js";
import jass from "./jass.js";
import stichling from "./stichling.js";
import stichmeister from "./stichmeister.js";
import stichwahl from "./stichwahl.js";

export const GAMES = { jass, coiffeur, differenzler, stichwahl, stichling, stichmeister };

export function gameFor(name) {
  const g = GAMES[name];
  if (!g) throw new Error(`no renderer for the game ${name}`);
  return g;
}

// Small icons drawn as inline SVG in the text's colour: emoji (a cup, a head, a loudspeaker) need a colour-emoji font,
// which many Linux desktops and every headless browser lack, and then show as empty boxes.

const svg = (body) =>
  `<svg class="ui-icon" viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true" focusable="false" ` +
  `fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

/** A cup: the leaderboards. */
export const trophy = svg(
  `<path d="M4.5 2.5h7v3.5a3.5 3.5 0 0 1-7 0z"/><path d="M4.5 3.5H2.5v1a2 2 0 0 0 2 2M11.5 3.5h2v1a2 2 0 0 1-2 2"/>` +
    `<path d="M8 9.5v3M5.5 13.5h5"/>`,
);

/** A head and shoulders: the account. */
export const person = svg(`<circle cx="8" cy="5" r="2.75"/><path d="M2.75 14a5.25 5.25 0 0 1 10.5 0"/>`);

/** A loudspeaker struck through: mute a player's chat. */
export const mute = svg(`<path d="M2.5 6h2.5l3.5-3v10l-3.5-3H2.5z"/><path d="M11 6l3.5 4M14.5 6L11 10"/>`);

/** A bracket of pairings: the tournaments. */
export const bracket = svg(`<path d="M2 3h4v4H2M2 9h4v4H2M6 5h3v6H6M9 8h5"/>`);

/** A robot's head: a game the computer played for a player who was gone. */
export const robot = svg(`<rect x="3" y="5" width="10" height="8" rx="2"/><path d="M8 5V2.5"/><circle cx="8" cy="2" r=".6"/><path d="M6 8.5v.5M10 8.5v.5M6.5 11h3"/>`);

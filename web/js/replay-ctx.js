// @ts-check
// What the table page's parts ask of their context when the replay viewer draws them (games/*/replay.js): a
// game that is over, that nobody sits at as the reader and nobody plays in, with no clock running.

/**
 * The shell's side of a read-only context: the table `tableId`, its players named by `nameOf`.
 * @param {string} tableId @param {(seat: number) => string} nameOf
 */
export const readOnly = (tableId, nameOf) => ({
  tableId,
  invite: null,
  nameOf,
  who: nameOf,
  mySeat: () => null,
  isBot: () => false,
  isBotPlayer: () => false,
  isStandIn: () => false,
  botPlaysForMe: () => false,
  myTurn: () => false,
  liveClocks: () => null,
  act: () => {},
  send: () => {},
});

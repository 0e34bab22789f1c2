/** @typedef {import('./types.js').Way} Way */
/** @typedef {import('./types.js').WayStatus} WayStatus */
/** @typedef {import('../aiconnect/client.js').AiConnect} AiConnect */
/** @typedef {import('../aiconnect/types.js').ConnectionState} ConnectionState */
/**
 * Return the AI Wallet way on `client` (one `AiConnect` per page).
 *
 * @param {AiConnect} client
 * @returns {Way}
 */
export function aiWalletWay(client: AiConnect): Way;
export type Way = import("./types.js").Way;
export type WayStatus = import("./types.js").WayStatus;
export type AiConnect = import("../aiconnect/client.js").AiConnect;
export type ConnectionState = import("../aiconnect/types.js").ConnectionState;

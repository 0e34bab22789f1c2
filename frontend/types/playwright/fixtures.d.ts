/**
 * @typedef {{ file: string, record?: 'none' | 'new' | 'all', python?: string }} CassetteOption
 *   The cassette the `aiwallet` fixture answers from (`testwalletCassette`).
 * @typedef {{ aiwallet: AiWallet, byoaExtension: ByoaExtension, browserAgent: BrowserAgent }} WalletFixtures
 * @typedef {{ webmcpBrowser: import('@playwright/test').Browser,
 *   testwalletCassette: CassetteOption | undefined,
 *   testwalletModel: { url: string, file: string } | null }} WalletWorkerFixtures
 * @typedef {import('@playwright/test').PlaywrightTestArgs & import('@playwright/test').PlaywrightTestOptions} TestArgs
 * @typedef {import('@playwright/test').PlaywrightWorkerArgs & import('@playwright/test').PlaywrightWorkerOptions} WorkerArgs
 */
/** Playwright's `test` with the wallet fixtures. */
export const test: import("@playwright/test").TestType<import("@playwright/test").PlaywrightTestArgs & import("@playwright/test").PlaywrightTestOptions & WalletFixtures, import("@playwright/test").PlaywrightWorkerArgs & import("@playwright/test").PlaywrightWorkerOptions & WalletWorkerFixtures>;
export { expect };
/**
 * The cassette the `aiwallet` fixture answers from (`testwalletCassette`).
 */
export type CassetteOption = {
    file: string;
    record?: "none" | "new" | "all";
    python?: string;
};
export type WalletFixtures = {
    aiwallet: AiWallet;
    byoaExtension: ByoaExtension;
    browserAgent: BrowserAgent;
};
export type WalletWorkerFixtures = {
    webmcpBrowser: import("@playwright/test").Browser;
    testwalletCassette: CassetteOption | undefined;
    testwalletModel: {
        url: string;
        file: string;
    } | null;
};
export type TestArgs = import("@playwright/test").PlaywrightTestArgs & import("@playwright/test").PlaywrightTestOptions;
export type WorkerArgs = import("@playwright/test").PlaywrightWorkerArgs & import("@playwright/test").PlaywrightWorkerOptions;
import { expect } from '@playwright/test';
import { AiWallet } from './aiwallet-driver.js';
import { ByoaExtension } from './byoa-driver.js';
import { BrowserAgent } from './webmcp-driver.js';
export { AiWallet, NotRecorded, SCRIPT_PATH as AIWALLET_SCRIPT_PATH } from "./aiwallet-driver.js";
export { ByoaExtension, FAILED, SCRIPT_PATHS as BYOA_SCRIPT_PATHS, SKILLS } from "./byoa-driver.js";
export { Consents, moreAsked } from "./consents.js";
export { CONSENTS, ScriptError, TimeoutError } from "./driver.js";
export { BrowserAgent, WEBMCP_FLAG, WebMCPMissing } from "./webmcp-driver.js";

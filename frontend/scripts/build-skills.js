// @ts-check
/**
 * Write testwallet/byoa-skills.js from testwallet/skills.json: the skill table as a classic
 * script, for byoa.js, which runs as an init script and cannot fetch or import a JSON file.
 * `npm run build:skills`; `--check` exits 1 when the checked-in file differs (tests run it).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const TABLE = new URL('../testwallet/skills.json', import.meta.url);
const SCRIPT = new URL('../testwallet/byoa-skills.js', import.meta.url);

/** The classic script for the table's text. @param {string} json */
function skillsScript(json) {
  const table = JSON.stringify(JSON.parse(json).skills, null, 2).replaceAll('\n', '\n  ');
  return `// Written by \`npm run build:skills\` from skills.json: edit that file, not this one.
// The test wallet's skill table for byoa.js, which takes window.__testwalletByoaSkills and removes it.
(() => {
  'use strict';
  const skills = ${table};
  Object.defineProperty(window, '__testwalletByoaSkills', { value: skills, configurable: true });
})();
`;
}

const wanted = skillsScript(readFileSync(TABLE, 'utf8'));
if (process.argv.includes('--check')) {
  if (readFileSync(SCRIPT, 'utf8') !== wanted) {
    console.error('testwallet/byoa-skills.js is not what skills.json says: run `npm run build:skills`');
    process.exit(1);
  }
} else {
  writeFileSync(SCRIPT, wanted);
}

// Stops the process with one clear sentence when it runs on a Node.js older than package.json's
// `engines.node` (">=MAJOR.MINOR"). Imported first by server/start.mjs, the worker and CLI entries,
// and the Vitest and Playwright configs. Plain Node ESM with no dependencies, so it runs anywhere.
import fs from "node:fs";

const packageJson = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const required = packageJson.engines.node;
const [minMajor, minMinor] = required
  .replace(/^>=\s*/, "")
  .split(".")
  .map(Number);
const [major, minor] = process.versions.node.split(".").map(Number);

if (major < minMajor || (major === minMajor && minor < (minMinor || 0))) {
  console.error(
    `Postwerk needs Node.js ${required.replace(/^>=\s*/, "")} or newer but found ${process.version} (${process.execPath}): ` +
      "run it through the npm scripts (npm start, npm test, npm run …, npx …), which use the Node 24 " +
      "installed in node_modules/.bin by `npm install`, or switch to Node 24 (`nvm use` reads .nvmrc).",
  );
  process.exit(1);
}

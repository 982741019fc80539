// npm run build:starters – renders the react-email starters (lib/domain/templates/starters/*.tsx) once to Liquid
// HTML and writes the committed module the app reads (server code cannot render React at runtime).
import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  GENERATED_MODULE_PATH,
  generatedModuleSource,
  renderStarters,
} from "../lib/domain/templates/starters/render-starters";

const starters = await renderStarters();
writeFileSync(path.join(process.cwd(), GENERATED_MODULE_PATH), generatedModuleSource(starters));
console.log(`Wrote ${GENERATED_MODULE_PATH}: ${starters.map((starter) => starter.key).join(", ")}`);

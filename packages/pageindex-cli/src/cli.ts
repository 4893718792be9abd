#!/usr/bin/env node
import { runCli } from "./cli/main.js";

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

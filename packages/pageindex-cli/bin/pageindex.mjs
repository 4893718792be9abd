#!/usr/bin/env node
// The `pageindex` bin lives outside dist/ so pnpm can link it on a fresh install, before the
// first build; it only loads the built CLI.
import "../dist/cli.mjs";

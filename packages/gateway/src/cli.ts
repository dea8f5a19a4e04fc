#!/usr/bin/env node
// The milpa-gateway command: `milpa-gateway --config gateway.json`.
import { runGatewayCli } from './cli/run-gateway-cli.js';

process.exitCode = await runGatewayCli(process.argv.slice(2));
// Upstream children and sockets are closed by now; nothing should keep the process alive.
process.exit();

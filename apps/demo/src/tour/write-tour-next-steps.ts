import type { TourWriter } from './tour-writer.js';

/**
 * Writes the tour's closing list of commands to try next.
 *
 * @example
 * writeTourNextSteps(out);
 */
export function writeTourNextSteps(out: TourWriter): void {
  out.raw(`\n${out.style.bold('Next')} ${out.style.dim('(without a global pnpm 10.34.9, type npx --yes pnpm@10.34.9 for pnpm)')}\n`);
  out.line('pnpm demo list                                              the tools, their scopes and flags');
  out.line('pnpm demo inspect publish_report --channel mcp --actor agent:worker --scope reports:publish');
  out.line(`pnpm demo call list_notes --args '{"page":2}'              one real call (add --json for the ToolResult)`);
  out.line(
    `pnpm demo call delete_note --args '{"id":2}' --run new       open a run and delete in it; pass the printed id with --run next time`,
  );
  out.line(`pnpm demo call delete_note --args '{"id":2}' --run new --approve   the same, asking you y/n first`);
  out.line('pnpm demo tools --provider ollama --model llama3.1:8b       the tools one model is offered (add --message "…")');
  out.line(`pnpm demo call code_search --args '{"pattern":"maize"}'      search the demo workspace (file_read and project_info too)`);
  out.line(
    'pnpm -s demo mcp                                            serve the demo registry over MCP ' +
      "(stdio; -s keeps pnpm's banner off stdout)",
  );
}

/** Scenarios that must pass: lifecycle, ping, logging, every tools scenario, schemas, elicitation, DNS rebinding, SSE polling. */
export const REQUIRED_SCENARIOS: readonly string[] = Object.freeze([
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'dns-rebinding-protection',
  'server-sse-polling',
]);

const TOOLS_ONLY = 'Milpa serves tools only: a ToolRegistry has no resources, prompts or completions to offer.';

/** Scenarios allowed to fail, with the reason. Every other scenario must pass. */
export const EXPECTED_FAILURES: Readonly<Record<string, string>> = Object.freeze({
  'completion-complete': TOOLS_ONLY,
  'resources-list': TOOLS_ONLY,
  'resources-read-text': TOOLS_ONLY,
  'resources-read-binary': TOOLS_ONLY,
  'resources-templates-read': TOOLS_ONLY,
  'resources-subscribe': TOOLS_ONLY,
  'resources-unsubscribe': TOOLS_ONLY,
  'prompts-list': TOOLS_ONLY,
  'prompts-get-simple': TOOLS_ONLY,
  'prompts-get-with-args': TOOLS_ONLY,
  'prompts-get-embedded-resource': TOOLS_ONLY,
  'prompts-get-with-image': TOOLS_ONLY,
});

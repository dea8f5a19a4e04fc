/**
 * Known context windows, in tokens, by model id or id prefix. A dated or suffixed id resolves to
 * its longest listed prefix: `gpt-4o-mini-2024-07-18` → `gpt-4o-mini`, `claude-sonnet-4-20250514`
 * → `claude-sonnet-4`, `gpt-4.1-nano` → `gpt-4.1`. Ids are matched lower-cased, and a provider path
 * (`openai/gpt-4o`, `models/gemini-2.5-pro`) or a Bedrock-style vendor prefix
 * (`anthropic.claude-3-5-sonnet-20240620-v1:0`) is ignored.
 *
 * Sources, as published on the vendors' model pages: OpenAI (platform.openai.com/docs/models),
 * Anthropic (docs.anthropic.com "Models overview"), Google (ai.google.dev/gemini-api/docs/models),
 * Meta (the Llama model cards on llama.com and Hugging Face), Mistral (docs.mistral.ai "Models
 * overview"), DeepSeek (api-docs.deepseek.com "Models & Pricing") and Qwen (the Qwen model cards
 * and Alibaba Cloud Model Studio's model list). Where a vendor offers a larger window only in beta
 * or only with an extension (Claude Sonnet 4's 1M-token beta, Qwen's YaRN scaling), the table lists
 * the window every account gets; pass `contextWindow` to use the larger one.
 */
export const MODEL_LIMITS: Readonly<Record<string, number>> = Object.freeze({
  // OpenAI
  'gpt-3.5-turbo': 16385,
  'gpt-3.5-turbo-0301': 4096,
  'gpt-3.5-turbo-0613': 4096,
  'gpt-3.5-turbo-instruct': 4096,
  'gpt-4': 8192,
  'gpt-4-32k': 32768,
  'gpt-4-turbo': 128000,
  'gpt-4-1106': 128000,
  'gpt-4-0125': 128000,
  'gpt-4-vision': 128000,
  'gpt-4o': 128000,
  'gpt-4o-mini': 128000,
  'chatgpt-4o': 128000,
  'gpt-4.1': 1047576,
  'gpt-4.5': 128000,
  'gpt-5': 400000,
  'gpt-5-chat': 128000,
  'gpt-oss': 131072,
  o1: 200000,
  'o1-mini': 128000,
  'o1-preview': 128000,
  o3: 200000,
  'o3-mini': 200000,
  'o4-mini': 200000,
  // Anthropic
  'claude-instant': 100000,
  'claude-2': 100000,
  'claude-2.1': 200000,
  'claude-3': 200000,
  'claude-3.5-sonnet': 200000,
  'claude-sonnet': 200000,
  'claude-haiku': 200000,
  'claude-opus': 200000,
  // Google
  'gemini-pro': 32760,
  'gemini-1.0-pro': 32760,
  'gemini-1.5-pro': 2097152,
  'gemini-1.5-flash': 1048576,
  'gemini-2.0-flash': 1048576,
  'gemini-2.5-pro': 1048576,
  'gemini-2.5-flash': 1048576,
  // Meta
  'llama-3': 8192,
  llama3: 8192,
  'llama-3.1': 128000,
  'llama3.1': 128000,
  'llama-3.2': 128000,
  'llama3.2': 128000,
  'llama-3.3': 128000,
  'llama3.3': 128000,
  // Mistral
  'mistral-large': 128000,
  'mistral-medium': 128000,
  'mistral-small': 128000,
  'mistral-nemo': 128000,
  'open-mistral-nemo': 128000,
  codestral: 256000,
  // DeepSeek
  'deepseek-chat': 128000,
  'deepseek-v3': 128000,
  'deepseek-r1': 128000,
  'deepseek-reasoner': 64000,
  // Qwen: native windows; YaRN scaling reaches 131,072 on the open models.
  'qwen2.5': 32768,
  qwen3: 32768,
  'qwen-max': 32768,
  'qwen3-max': 262144,
  'qwen-plus': 131072,
  'qwen-turbo': 131072,
});

/**
 * The context window assumed for a model matched by no entry: 128,000 tokens, the smallest window
 * of the current hosted families above, since an id nobody listed is most often a newer model.
 * The estimator logs a warning (once per model id) whenever it falls back to it; pass
 * `contextWindow` or `modelLimits` to state the real window.
 */
export const DEFAULT_MODEL_LIMIT = 128000;

/**
 * The share of a model's context, in percent, that tool definitions may take; the rest is left
 * for the system prompt, the conversation and the answer.
 */
export const RECOMMENDED_TOOL_BUDGET_PERCENT = 30;

// @milpa/tool-runtime: the Milpa engine. One governed pipeline for every tool call:
// resolve → validate → clamp → authorize → rate-limit → plan-mode → confirm → intercept → execute → audit.

// --- policy (shared) ---
export { SEED_CHANNEL_POLICIES, FAIL_CLOSED_CHANNEL_POLICY, type ChannelPolicy } from './policy/channel-policy.js';

// --- gates: validation, policy gate, rate limiting, confirmation, audit ---

// --- presentation: rendering, token budgets, inspection ---

// --- registry and pipeline ---

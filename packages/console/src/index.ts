// @milpa/console: the approvals page a person uses to decide held tool calls.
// A plain Node request handler: pending list, detail view, grant/reject with edits, history, live updates.

export { createApprovalConsole, type ApprovalConsole } from './console/create-approval-console.js';
export type {
  ApprovalConsoleOptions,
  ConsoleAuthenticate,
  ConsoleAuthorize,
  ConsoleIdentity,
  ConsoleLogin,
  ConsoleSchemaValidator,
  ConsoleToolCatalog,
} from './console/approval-console-options.js';
export type { ApprovalItem } from './console/approval-item.js';
export { tokenAuthentication, type TokenAuthentication, type TokenAuthenticationOptions } from './auth/token-authentication.js';
export { authorizeByTable, type ApproverRule, type ApproverTable } from './auth/authorize-by-table.js';
export type { ConsoleSession, ConsoleSessionStore } from './auth/console-session-store.js';
export { ConsoleSessions, type ConsoleSessionsOptions } from './auth/console-sessions.js';
export { InMemoryConsoleSessionStore, type InMemoryConsoleSessionStoreOptions } from './auth/in-memory-console-session-store.js';
export { CONTENT_SECURITY_POLICY } from './security/security-headers.js';
export type { ApprovalNotification, ApprovalNotificationKind, ApprovalNotifier } from './notify/approval-notification.js';
export type { NotifyErrorHandler } from './notify/approval-notifications.js';
export { webhookNotifier, type WebhookNotifierOptions } from './notify/webhook-notifier.js';
export { WebhookDeliveryError, type WebhookDeliveryErrorOptions } from './notify/webhook-delivery-error.js';
export {
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  verifyWebhookSignature,
  type WebhookSignatureCheck,
} from './notify/webhook-signature.js';

import { revealNameAsText, revealTextAsText } from '../views/reveal-text.js';
import type { ApprovalNotification } from './approval-notification.js';

const MAX_REASON_IN_TEXT = 300;

/** Text for Slack's `mrkdwn`: `&`, `<` and `>` escaped, so no name or reason can mention `@channel` or forge a link. */
function slackText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A name (tool, requester, approver) for Slack: every character outside printable ASCII as a `\u{…}` escape, as the pages show it. */
function slackName(name: string): string {
  return slackText(revealNameAsText(name));
}

function clip(value: string): string {
  return value.length <= MAX_REASON_IN_TEXT ? value : `${value.slice(0, MAX_REASON_IN_TEXT - 1)}…`;
}

/**
 * A one-line message about `notification` for people (Slack `mrkdwn`: names and reasons are
 * escaped, their hidden and look-alike characters shown as `\u{…}` escapes as on the pages, the
 * link is `<url|Open in the approvals console>`). Never names an argument.
 */
export function describeNotification(notification: ApprovalNotification): string {
  const call = `\`${slackName(notification.tool)}\` requested by ${slackName(notification.requester ?? 'an unknown caller')}`;
  const votes = `${notification.approvals} of ${notification.required} approvals`;
  const by = slackName(notification.decidedBy ?? 'nobody');
  const given = notification.reason;
  const reason = given === null || given === '' ? '' : `: ${slackText(revealTextAsText(clip(given)))}`;
  let text: string;
  switch (notification.kind) {
    case 'opened':
      text = `Approval needed: ${call} (${notification.policy} rule, ${votes}).`;
      break;
    case 'approval_recorded':
      text = `Approval recorded by ${by} on ${call} (${votes}; more are needed)${reason}.`;
      break;
    case 'granted':
      text = `Granted by ${by}: ${call} may now run (${votes})${reason}.`;
      break;
    case 'rejected':
      text = `Rejected by ${by}: ${call} will not run${reason}.`;
      break;
    case 'expired':
      text = `Expired: ${call} was not decided in time and will not run (${votes}).`;
      break;
  }
  if (notification.url === null) return text;
  const link = notification.url.replaceAll('&', '&amp;').replaceAll('<', '%3C').replaceAll('>', '%3E').replaceAll('|', '%7C');
  return `${text} <${link}|Open in the approvals console>`;
}

/** The notification's wire form (snake_case keys, the time as ISO 8601), as webhooks carry it. */
export function notificationToJson(notification: ApprovalNotification): Record<string, unknown> {
  return {
    kind: notification.kind,
    approval_id: notification.approvalId,
    tool: notification.tool,
    requester: notification.requester,
    policy: notification.policy,
    approvals: notification.approvals,
    required: notification.required,
    decided_by: notification.decidedBy,
    reason: notification.reason,
    at: notification.at.toISOString(),
    url: notification.url,
  };
}

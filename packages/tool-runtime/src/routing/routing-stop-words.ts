/**
 * English function words the router ignores in messages and routing hints: they say nothing about
 * which tool a request needs, and would otherwise match every description. Request verbs such as
 * `get`, `list`, `find` or `delete` are not here, because they are what intents are made of.
 */
export const ROUTING_STOP_WORDS: ReadonlySet<string> = new Set(
  `
  about above after again against all also and any are aren because been before being below
  between both but can cannot could couldn did didn does doesn doing don down during each either
  else even ever every few for from further had hadn has hasn have haven having her here hers
  herself him himself his how however into isn its itself just let may might mine more most must
  mustn myself need neither nor not now off once only other ought our ours ourselves out over own
  please same shall shan she should shouldn some such than that the their theirs them themselves
  then there these they this those through too under until upon use very want was wasn were weren what
  when where whether which while who whom whose why will with within without won would wouldn yet
  you your yours yourself yourselves
  `
    .trim()
    .split(/\s+/),
);

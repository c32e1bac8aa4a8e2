// Texts that say which parts a figure counts (issue 27 point 5; decisions 1020, 1021), spread into the office
// catalogue (office-texts.ts): the controller's own counter is not good parts, and a goal is compared with the
// good parts made where it was set.

export const partsTexts = {
  'parts.goalParts': 'Good parts with a goal',
  'parts.goalPartsHint': 'made while a job run set the goal: what the goal is compared with',
  'cycles.goodParts': 'Good parts',
  'cycles.goodPartsHint': '{total} counted and corrected, {rejected} rejected',
  'machines.col.controllerCount': 'Controller count',
  'machines.col.controllerCountTitle':
    "The machine's own part counter, not good parts: it counts cycles since the controller last reset it.",
} as const;

import type { AskView } from '../../../bridge/protocol/index.js';
import type { AutoRule } from '../shell/settings.js';

/** An auto-answer a card will give if nobody touches it: the rule, and the value it sends. */
export interface AutoAnswer {
  rule: AutoRule;
  value: boolean | string;
  /** what the card says it will answer */
  label: string;
}

/**
 * The first rule that fits this ask (its agent or any, its kind) with a reply the ask can take: yes/no for a
 * confirm, present/away for presence, one of its choices for a single choose, any text for an input. A multiple
 * choose, a page command and a pick are never answered by themselves.
 */
export function ruleFor(rules: readonly AutoRule[], ask: AskView): AutoAnswer | undefined {
  for (const rule of rules) {
    if (rule.kind !== ask.kind || (rule.agent !== '*' && rule.agent !== ask.agentId)) continue;
    if (ask.kind === 'user_confirm' && (rule.reply === 'yes' || rule.reply === 'no'))
      return { rule, value: rule.reply === 'yes', label: rule.reply };
    if (ask.kind === 'user_presence' && (rule.reply === 'present' || rule.reply === 'away'))
      return { rule, value: rule.reply, label: rule.reply };
    if (ask.kind === 'user_choose' && !ask.multiple && ask.choices?.includes(rule.reply))
      return { rule, value: rule.reply, label: rule.reply };
    if (ask.kind === 'user_input') return { rule, value: rule.reply, label: rule.reply };
  }
  return undefined;
}

import type { Page } from '../pages/registry.js';

/** Approvals the human gave with "allow for this page"; they go when the page object does (the page is forgotten). */
export class PageApprovals {
  private readonly approved = new WeakMap<Page, Set<string>>();

  has(page: Page, key: string): boolean {
    return this.approved.get(page)?.has(key) ?? false;
  }

  add(page: Page, key: string): void {
    const keys = this.approved.get(page) ?? new Set<string>();
    keys.add(key);
    this.approved.set(page, keys);
  }
}

// reports-admin §6: permissions by product tier.
export const PRODUCT_TIERS = ['serviceProvider', 'utilization', 'full'] as const;
export type ProductTier = (typeof PRODUCT_TIERS)[number];
export type Permission = 'PerformanceDashboard' | 'Utilization' | 'FullProduct' | 'InviteUsers';

export function permissionsFor(input: {
  tier: ProductTier;
  isRoot: boolean;
  isAdmin: boolean;
  demoMode: boolean;
}): Permission[] {
  const p: Permission[] = [];
  if (input.tier === 'utilization' || input.tier === 'full') p.push('PerformanceDashboard', 'Utilization');
  if (input.tier === 'full') p.push('FullProduct');
  if (input.isRoot || (input.isAdmin && !input.demoMode)) p.push('InviteUsers');
  return p;
}

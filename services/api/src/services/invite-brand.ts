import { ApiError } from '../http/errors';
import type { UserCaller } from '../http/context';

// reports-admin §3 "Invitee: invitees list, role, brand_override" (decision 1117): a root user, or a user of a
// service provider's company (product tier serviceProvider, who resells Takt under their own name), may give an
// invite a brand; it replaces "Takt" in the invitation e-mail and, once accepted, in the user's app header.

export const mayBrandInvites = (caller: Pick<UserCaller, 'user' | 'company'>): boolean =>
  caller.user.isRoot || caller.company.productTier === 'serviceProvider';

export const BRAND_REFUSED = 'Only root users and service providers may set a brand.';

export const brandRefused = () => new ApiError(403, 'FORBIDDEN', BRAND_REFUSED);

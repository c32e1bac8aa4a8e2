import { describeMalformedWalk } from '../testing/malformed-walk';

describeMalformedWalk(1, 4);

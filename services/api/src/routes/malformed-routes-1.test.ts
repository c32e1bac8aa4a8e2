import { describeMalformedWalk } from '../testing/malformed-walk';

describeMalformedWalk(0, 4);

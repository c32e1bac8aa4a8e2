import { describeMalformedWalk } from '../testing/malformed-walk';

describeMalformedWalk(3, 4);

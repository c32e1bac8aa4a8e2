import { describeMalformedWalk } from '../testing/malformed-walk';

describeMalformedWalk(2, 4);

import { describeFuzzWalk } from '../testing/fuzz-walk';

describeFuzzWalk(0, 3);

import { describeFuzzWalk } from '../testing/fuzz-walk';

describeFuzzWalk(1, 3);

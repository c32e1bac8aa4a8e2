import { describeFuzzWalk } from '../testing/fuzz-walk';

describeFuzzWalk(2, 3);

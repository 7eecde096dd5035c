package clock

import "sync/atomic"

var sink atomic.Int64

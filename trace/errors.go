package trace

import "github.com/leolab/leolab/internal/fileerr"

// Error is a problem in a trace file: where it is and what is allowed.
type Error = fileerr.Error

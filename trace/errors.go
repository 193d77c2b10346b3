package trace

import "fmt"

// Error is a problem in a trace file: where it is and what is allowed.
type Error struct {
	File string
	Line int // 0 when the problem is the file as a whole
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Package fileerr owns the error that a reader of a user's file returns:
// the file, the line when one is to blame, and what is wrong there,
// printed as compilers do (file:line: message) so that editors and
// terminals can jump to it. Packages that read files (trace, orbit's
// schedules, link/schedule's path logs) name it under their own type
// name by alias, so errors.As finds it whichever name a caller uses.
package fileerr

import "fmt"

// Error is a problem in a file: where it is and what is allowed.
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

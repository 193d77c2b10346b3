package scenario

import "fmt"

// Error is a problem in a scenario: where it is and what is allowed.
type Error struct {
	File  string // "" for the flag form
	Line  int    // 0 when not known
	Field string // field path, e.g. flows[1].cca
	Msg   string
}

func (e *Error) Error() string {
	loc := e.File
	if loc == "" {
		loc = "scenario"
	}
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Line)
	}
	if e.Field == "" {
		return loc + ": " + e.Msg
	}
	return loc + ": " + e.Field + ": " + e.Msg
}

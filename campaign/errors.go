package campaign

import "fmt"

// Error is a problem in a campaign file: where it is and what is allowed.
// The CLI turns it into exit status 2.
type Error struct {
	File  string // "" for a built-in campaign
	Line  int    // 0 when not known
	Field string // field path, e.g. axes.cca[2]
	Msg   string
}

func (e *Error) Error() string {
	loc := e.File
	if loc == "" {
		loc = "campaign"
	}
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Line)
	}
	if e.Field == "" {
		return loc + ": " + e.Msg
	}
	return loc + ": " + e.Field + ": " + e.Msg
}

func failAt(file string, line int, field, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

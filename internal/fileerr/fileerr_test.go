package fileerr

import (
	"errors"
	"fmt"
	"testing"
)

// The message names the file, and the line only when one is known.
func TestError(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "a.csv", Line: 3, Msg: "bad"}, "a.csv:3: bad"},
		{Error{File: "a.csv", Msg: "empty"}, "a.csv: empty"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
	var fe *Error
	if err := fmt.Errorf("load: %w", &Error{File: "x", Line: 1, Msg: "m"}); !errors.As(err, &fe) || fe.Line != 1 {
		t.Errorf("errors.As through a wrap: %v", fe)
	}
}

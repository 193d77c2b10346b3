package group

import (
	"reflect"
	"testing"
)

func TestByFirstSeen(t *testing.T) {
	got := ByFirstSeen([]string{"b", "a", "b", "c", "a"}, func(s string) string { return s })
	if want := [][]int{{0, 2}, {1, 4}, {3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := ByFirstSeen([]int(nil), func(int) int { return 0 }); got != nil {
		t.Errorf("empty input: %v", got)
	}
}

package profile

import (
	"math"
	"testing"
)

// The constant is the median of |U1-U2| for uniform U on [-1, 1]: check it
// against its closed form 2 - sqrt(2).
func TestUniformMedianDiff(t *testing.T) {
	if math.Abs(uniformMedianDiff-(2-math.Sqrt2)) > 1e-15 {
		t.Errorf("uniformMedianDiff = %v", uniformMedianDiff)
	}
}

func TestValidateDefaults(t *testing.T) {
	for _, city := range append([]string{""}, Cities()...) {
		sp, err := Starlink(city, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := sp.Validate(); err != nil {
			t.Errorf("%q: %v", city, err)
		}
	}
}

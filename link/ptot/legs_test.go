package ptot

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestTotalHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name string
		legs Legs
		want float64
	}{
		{"no loss", Legs{}, 0},
		{"one leg", Legs{At: 0.25}, 0.25},
		// 1 − 0.9·0.8 = 0.28: two legs are not additive (0.3).
		{"two legs", Legs{Cap: 0.1, Gw: 0.2}, 0.28},
		// 1 − .99·.98·.97·.96·.95·.94, multiplied out by hand:
		// .99·.98 = .9702; ·.97 = .941094; ·.96 = .90345024;
		// ·.95 = .858277728; ·.94 = .80678106432.
		{"every leg, two ISLs", Legs{Cap: 0.01, At: 0.02, Ho: 0.03, Gw: 0.04, ISL: []float64{0.05, 0.06}}, 0.19321893568},
		// Seed 000 eq. 2 with N_isl = 3 equal ISLs: 1 − 0.5·0.9³ = 0.6355.
		{"three equal ISLs", Legs{Ho: 0.5, ISL: []float64{0.1, 0.1, 0.1}}, 0.6355},
	} {
		if got := tc.legs.Total(); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Total() = %.12f, want %.12f", tc.name, got, tc.want)
		}
	}
}

func TestLegsValidateNamesField(t *testing.T) {
	for _, tc := range []struct {
		legs  Legs
		field string
	}{
		{Legs{Cap: 1}, "p_cap"},
		{Legs{At: -0.1}, "p_at"},
		{Legs{Ho: math.NaN()}, "p_ho"},
		{Legs{Gw: 1.5}, "p_gw"},
		{Legs{ISL: []float64{0, 0, math.Inf(1)}}, "p_isl[2]"},
	} {
		err := tc.legs.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: error %v, want one naming %s", tc.legs, err, tc.field)
			continue
		}
		if !strings.Contains(err.Error(), "[0, 1)") {
			t.Errorf("%v: does not say what is allowed", err)
		}
	}
	if err := (Legs{Cap: 0.999, ISL: []float64{0}}).Validate(); err != nil {
		t.Errorf("valid legs refused: %v", err)
	}
}

func TestParamsValidate(t *testing.T) {
	for _, tc := range []struct {
		p     Params
		field string
	}{
		{Params{ISL: 1}, "p_isl"},
		{Params{Ho: -1e-9}, "p_ho"},
		{Params{Window: -1}, "handover_window"},
	} {
		var fe *FieldError
		if err := tc.p.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: error %v, want one naming %s", tc.p, err, tc.field)
		}
	}
}

package qdisc

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

func TestRegistryBuildsEveryDiscipline(t *testing.T) {
	for _, name := range Names() {
		in, _ := Lookup(name)
		params := map[string]float64{}
		for _, p := range in.Params {
			params[p.Name] = p.Default
		}
		q, err := New(Config{Discipline: name, ECN: in.ECN, Params: params, RateBps: 10e6}, rng(1), func(time.Duration, *packet.Packet, link.DropCause) {})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var pool packet.Pool
		p := pool.Get()
		p.Size = 1500
		q.Enqueue(0, p)
		if got := q.Dequeue(time.Millisecond); got != p || q.Len() != 0 || q.Bytes() != 0 {
			t.Fatalf("%s: one packet in, got %v back, len %d bytes %d", name, got, q.Len(), q.Bytes())
		}
	}
}

func TestConfigErrorsNameTheField(t *testing.T) {
	for _, c := range []struct {
		cfg          Config
		field, words string
	}{
		{Config{Discipline: "fifo"}, "discipline", "allowed: droptail"},
		{Config{Discipline: "codel", Params: map[string]float64{"tagret": 1}}, "params.tagret", "allowed: target, interval"},
		{Config{Discipline: "codel", Params: map[string]float64{"target": 0}}, "params.target", "must be in"},
		{Config{Discipline: "droptail", ECN: true}, "ecn", "does not mark"},
		{Config{Discipline: "red", RateBps: 1e6, Params: map[string]float64{"min_th": 20}}, "params.max_th", "above min_th"},
		{Config{Discipline: "pie", Limit: link.QueueLimit{Packets: -1}}, "limit_packets", ">= 0"},
	} {
		err := c.cfg.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Msg, c.words) {
			t.Errorf("%+v: error %v, want field %s with %q", c.cfg, err, c.field, c.words)
		}
	}
}

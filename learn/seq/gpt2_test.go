package seq

import (
	"bytes"
	gocontext "context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTinyGPT2 writes a random GPT-2 checkpoint of width d and the
// given layers in Hugging Face's GPT2LMHeadModel naming ("transformer."
// prefix, with the token and position embeddings the policy does not
// use), weights N(0, 0.02) as GPT-2 initialises them, LayerNorm gains
// about 1.
func writeTinyGPT2(t testing.TB, d, layers int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	ts := map[string]STensor{}
	add := func(name string, mean, std float64, shape ...int) {
		n := 1
		for _, s := range shape {
			n *= s
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(mean + std*rng.NormFloat64())
		}
		ts["transformer."+name] = F32Tensor(v, shape...)
	}
	add("wte.weight", 0, 0.02, 50, d)
	add("wpe.weight", 0, 0.01, 64, d)
	for l := range layers {
		for name, shape := range gpt2Shapes(d) {
			mean := 0.0
			if strings.HasSuffix(name, "ln_1.weight") || strings.HasSuffix(name, "ln_2.weight") {
				mean = 1
			}
			add(fmt.Sprintf("h.%d.%s", l, name), mean, 0.02, shape...)
		}
	}
	add("ln_f.weight", 1, 0.02, d)
	add("ln_f.bias", 0, 0.02, d)
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, map[string]string{"format": "pt"}, ts); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gpt2-tiny.safetensors")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gpt2Config(rank int) Config {
	c := tinyConfig()
	c.Backbone, c.Heads = BackboneGPT2, 2
	if rank > 0 {
		c.DefaultLoRA()
		c.LoRARank = rank
	}
	return c
}

// sampleBatch is the windows ending at every 10th step of seqs.
func sampleBatch(seqs []Sequence, w int) *Batch {
	var wins []window
	for i, s := range seqs {
		for t := 0; t < len(s.Steps); t += 10 {
			wins = append(wins, window{i, t})
		}
	}
	b := newBatch(len(wins), w)
	for n, wd := range wins {
		b.fill(n, seqs, wd)
	}
	return b
}

// TestGPT2LoRAZeroInit: with LoRA's B at zero the adapted model's
// outputs are the frozen model's; a non-zero B changes them.
func TestGPT2LoRAZeroInit(t *testing.T) {
	path := writeTinyGPT2(t, 16, 2)
	seqs := realSequences(t)
	frozen, err := NewModel(gpt2Config(0), 3, path)
	if err != nil {
		t.Fatal(err)
	}
	lora, err := NewModel(gpt2Config(4), 3, path)
	if err != nil {
		t.Fatal(err)
	}
	if lora.Config.Width != 16 || lora.Config.Layers != 2 {
		t.Fatalf("config from checkpoint: width %d layers %d, want 16, 2", lora.Config.Width, lora.Config.Layers)
	}
	b := sampleBatch(seqs, lora.Config.Window)
	lf, err := frozen.Logits(b)
	if err != nil {
		t.Fatal(err)
	}
	ll, err := lora.Logits(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range lf {
		if lf[i] != ll[i] {
			t.Fatalf("logit %d: LoRA %g, frozen %g: zero-initialised LoRA must not change the output", i, ll[i], lf[i])
		}
	}
	// Parameters: the backbone (12d²+13d per block + 2d for ln_f) is
	// frozen; LoRA adds r·(in+out) per target matrix.
	d, r := 16, 4
	backbone := 2*(12*d*d+13*d) + 2*d
	loraN := 2 * r * ((d + 3*d) + (d + d) + (d + 4*d) + (4*d + d))
	tf, trf := frozen.Params()
	tl, trl := lora.Params()
	if tf-trf != backbone || tl-trl != backbone || tl-tf != loraN || trl-trf != loraN {
		t.Fatalf("params: frozen %d (%d trainable), LoRA %d (%d trainable); want frozen backbone %d, LoRA %d", tf, trf, tl, trl, backbone, loraN)
	}
	t.Logf("tiny GPT-2 + LoRA r=%d: %d parameters, %d trainable (%.1f%%)", r, tl, trl, 100*float64(trl)/float64(tl))
	// The check can fail: B ≠ 0 moves the logits.
	for v := range lora.ctx.IterVariables() {
		if v.Name() == "B" {
			v.MustSetValue(initTensor(1, varKey(v), normalInit(0.1), v.Shape().Dimensions))
		}
	}
	ll2, err := lora.Logits(b)
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for i := range lf {
		if lf[i] > maskValue/2 && lf[i] != ll2[i] {
			same = false
		}
	}
	if same {
		t.Fatal("non-zero LoRA B left every logit unchanged")
	}
}

// TestGPT2TrainsOnlyAdapters: training a LoRA-adapted GPT-2 changes the
// adapters, the encoder and the head, never the frozen backbone.
func TestGPT2TrainsOnlyAdapters(t *testing.T) {
	path := writeTinyGPT2(t, 16, 2)
	seqs := realSequences(t)
	tc := tinyTrain()
	tc.Epochs = 1
	before, err := NewModel(gpt2Config(4), tc.Seed, path)
	if err != nil {
		t.Fatal(err)
	}
	after, err := Train(gocontext.Background(), gpt2Config(4), tc, seqs, TrainOptions{GPT2: path})
	if err != nil {
		t.Fatal(err)
	}
	vb, err := before.Variables()
	if err != nil {
		t.Fatal(err)
	}
	va, err := after.Variables()
	if err != nil {
		t.Fatal(err)
	}
	changed := map[string]int{}
	for k, b := range vb {
		a := va[k]
		diff := false
		for i := range b {
			if a[i] != b[i] {
				diff = true
				break
			}
		}
		scope := strings.SplitN(k, "/", 3)[1]
		if diff {
			changed[scope]++
		}
		if scope == ScopeBackbone && diff {
			t.Errorf("frozen backbone variable %s changed in training", k)
		}
	}
	for _, s := range []string{ScopeEncoder, ScopeLoRA, ScopeHead} {
		if changed[s] == 0 {
			t.Errorf("no %s variable changed in training", s)
		}
	}
	t.Logf("variables changed per scope: %v", changed)
}

func TestGPT2Errors(t *testing.T) {
	dir := t.TempDir()
	// A safetensors file that is not GPT-2.
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, nil, map[string]STensor{"w": F32Tensor([]float32{1, 2}, 2)}); err != nil {
		t.Fatal(err)
	}
	notGPT := filepath.Join(dir, "x.safetensors")
	os.WriteFile(notGPT, buf.Bytes(), 0o644)
	_, err := NewModel(gpt2Config(4), 1, notGPT)
	if err == nil || !strings.Contains(err.Error(), notGPT) || !strings.Contains(err.Error(), "ln_f.weight") {
		t.Fatalf("not a GPT-2 file: err %v", err)
	}
	// Heads that do not divide the width.
	c := gpt2Config(4)
	c.Heads = 3
	if _, err := NewModel(c, 1, writeTinyGPT2(t, 16, 1)); err == nil || !strings.Contains(err.Error(), "--heads 3") {
		t.Fatalf("heads 3 on width 16: err %v", err)
	}
	if _, err := NewModel(gpt2Config(4), 1, filepath.Join(dir, "missing.safetensors")); err == nil || !strings.Contains(err.Error(), "missing.safetensors") {
		t.Fatalf("missing file: err %v", err)
	}
}

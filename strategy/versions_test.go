package strategy_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"kestrel/domain"
	"kestrel/strategy"
)

func TestDefaultsStartAsVersionOne(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	for _, c := range r.eng.List() {
		if c.Version != 1 {
			t.Fatalf("%s runs version %d, want 1", c.Name, c.Version)
		}
		vs, err := r.eng.Versions(ctx, c.Name)
		if err != nil || len(vs) != 1 || !vs[0].Active || vs[0].Note != "Default configuration" {
			t.Fatalf("%s versions = %+v, %v", c.Name, vs, err)
		}
	}
}

func TestSavingTheConfigurationIsANewVersionAndEvaluationsAndOrdersCarryIt(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.enable(t, strategy.TechnicalName, "BTC-USD") // Configure: version 2
	c, _ := r.eng.Get(strategy.TechnicalName)
	if c.Version != 2 {
		t.Fatalf("after Configure the instance runs version %d, want 2", c.Version)
	}
	vs, err := r.eng.Versions(ctx, strategy.TechnicalName)
	if err != nil || len(vs) != 2 || vs[0].Version != 2 || !vs[0].Active || vs[0].Parent != 1 || vs[1].Active {
		t.Fatalf("versions = %+v, %v", vs, err)
	}
	// Enabling it is not a new version.
	var p map[string]any
	if err := json.Unmarshal(vs[0].Params, &p); err != nil || p["enabled"] != nil || p["name"] != nil || p["indicators"] == nil {
		t.Fatalf("version params %s (want the parameters without name or enabled)", vs[0].Params)
	}
	evs := r.eng.Step(ctx)
	if len(evs) != 1 || evs[0].StrategyVersion != 2 || !evs[0].Executed {
		t.Fatalf("evaluations %+v", evs)
	}
	stored, err := r.store.Evaluations(ctx, domain.EvaluationFilter{Strategy: strategy.TechnicalName})
	if err != nil || len(stored) != 1 || stored[0].StrategyVersion != 2 {
		t.Fatalf("stored evaluations %+v, %v", stored, err)
	}
	o, err := r.sb.Order(ctx, evs[0].OrderID)
	if err != nil || o.StrategyVersion != 2 {
		t.Fatalf("order %+v, %v (want strategy_version 2)", o, err)
	}
}

func TestActivateRollsBackWithoutRewritingAnything(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	name := strategy.TechnicalName
	v2, err := r.eng.SaveVersion(ctx, name, json.RawMessage(`{"indicators":{"rsi_period":7}}`), strategy.Meta{By: "op@example.com", Note: "faster"})
	if err != nil || v2.Version != 2 || v2.Indicators.RSIPeriod != 7 || v2.Indicators.SMALong != 20 {
		t.Fatalf("SaveVersion = %+v, %v", v2, err)
	}
	before, _ := r.store.StrategyVersions(ctx, name)
	c, err := r.eng.Activate(ctx, name, 1)
	if err != nil || c.Version != 1 || c.Indicators.RSIPeriod != 14 {
		t.Fatalf("Activate(1) = %+v, %v", c, err)
	}
	if run, _ := r.eng.Get(name); run.Version != 1 || run.Indicators.RSIPeriod != 14 {
		t.Fatalf("running after roll back: %+v", run)
	}
	after, _ := r.store.StrategyVersions(ctx, name)
	if len(after) != 2 || len(before) != 2 || string(after[0].Params) != string(before[0].Params) || after[0].Note != "faster" || after[0].CreatedBy != "op@example.com" {
		t.Fatalf("activation changed the versions: before %+v after %+v", before, after)
	}
	vs, _ := r.eng.Versions(ctx, name)
	if vs[0].Active || !vs[1].Active {
		t.Fatalf("active marks %+v", vs)
	}
	// Roll forward; a version derived from version 1 names its parent.
	if c, err = r.eng.Activate(ctx, name, 2); err != nil || c.Indicators.RSIPeriod != 7 {
		t.Fatalf("Activate(2) = %+v, %v", c, err)
	}
	v3, err := r.eng.SaveVersion(ctx, name, json.RawMessage(`{"min_confidence":0.8}`), strategy.Meta{Parent: 1})
	if err != nil || v3.Version != 3 || v3.Indicators.RSIPeriod != 14 || v3.MinConfidence != 0.8 {
		t.Fatalf("version 3 from version 1 = %+v, %v", v3, err)
	}
	if got, _ := r.eng.VersionOf(ctx, name, 3); got.Parent != 1 || !got.Active {
		t.Fatalf("version 3 = %+v", got)
	}
	if _, err := r.eng.Activate(ctx, name, 9); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("activating a missing version: %v, want not_found", err)
	}
	if _, err := r.eng.Activate(ctx, "nope", 1); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("activating on a missing strategy: %v, want not_found", err)
	}
}

func TestSaveVersionRefusesBadParamsWithFieldErrors(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	for _, tc := range []struct {
		params string
		parent int
		field  string
	}{
		{`{"indicators":{"rsi_period":99}}`, 0, "indicators.rsi_period"},
		{`{"indicators":{"rsi_periodd":7}}`, 0, "params"},
		{`{"model":"x"}`, 0, "params"},
		{`{"name":"other"}`, 0, "params.name"},
		{`[1]`, 0, "params"},
		{`{}`, 7, "parent"},
		{`{}`, -1, "parent"},
	} {
		_, err := r.eng.SaveVersion(ctx, strategy.TechnicalName, json.RawMessage(tc.params), strategy.Meta{Parent: tc.parent})
		var de *domain.Error
		if !errors.As(err, &de) || de.Code != domain.EInvalid || de.Fields[tc.field] == "" {
			t.Errorf("%s (parent %d): %v, want a field error on %s", tc.params, tc.parent, err, tc.field)
		}
	}
	if vs, _ := r.eng.Versions(ctx, strategy.TechnicalName); len(vs) != 1 {
		t.Fatalf("a refused save stored a version: %+v", vs)
	}
}

func TestSavesAtOnceGetDistinctNumbers(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.eng.SaveVersion(ctx, strategy.TechnicalName, json.RawMessage(`{"min_confidence":0.`+string(rune('1'+i))+`}`), strategy.Meta{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	vs, err := r.eng.Versions(ctx, strategy.TechnicalName)
	if err != nil || len(vs) != 9 {
		t.Fatalf("versions %d, %v", len(vs), err)
	}
	for i, v := range vs {
		if v.Version != 9-i {
			t.Fatalf("versions out of order or repeated: %+v", vs)
		}
	}
	if c, _ := r.eng.Get(strategy.TechnicalName); c.Version != 9 || !vs[0].Active {
		t.Fatalf("running version %d, want the last saved (9)", c.Version)
	}
}

package run

import (
	"reflect"
	"strings"
	"testing"
)

func TestScanParam(t *testing.T) {
	tests := []struct {
		min, max, step string
		want           []string
		wantErr        string
	}{
		{"1", "4", "", []string{"1", "2", "3", "4"}, ""},
		{"0.3", "0.7", "0.2", []string{"0.3", "0.5", "0.7"}, ""},
		{"0", "1", "0.1", []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"}, ""},
		{"1", "10", "4", []string{"1", "5", "9"}, ""},
		{"-2", "0", "", []string{"-2", "-1", "0"}, ""},
		{"5", "5", "", []string{"5"}, ""},
		{"5", "1", "", nil, "larger than maximum"},
		{"1", "5", "0", nil, "must be positive"},
		{"1", "5", "-1", nil, "must be positive"},
		{"a", "5", "", nil, "not a decimal"},
		{"1", "1e9", "", nil, "not a decimal"},
		{"1", "1000000000", "", nil, "more than"},
	}
	for _, tt := range tests {
		p, err := ScanParam("n", tt.min, tt.max, tt.step)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ScanParam(%s,%s,%s) error = %v, want %q", tt.min, tt.max, tt.step, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(p.Values, tt.want) {
			t.Errorf("ScanParam(%s,%s,%s) = %q, %v; want %q", tt.min, tt.max, tt.step, p.Values, err, tt.want)
		}
	}
}

func TestProductAndSubstitute(t *testing.T) {
	x, _ := ListParam("x", "a,b")
	y, _ := ListParam("y", "1,2,3")
	combos, err := product([]Param{x, y})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range combos {
		got = append(got, substitute("echo {x}{y} {z} {", c))
	}
	want := []string{"echo a1 {z} {", "echo b1 {z} {", "echo a2 {z} {", "echo b2 {z} {", "echo a3 {z} {", "echo b3 {z} {"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("substituted product = %q, want %q", got, want)
	}
	if c, err := product(nil); err != nil || len(c) != 1 || len(c[0]) != 0 {
		t.Errorf("Product(nil) = %v, %v; want one empty combination", c, err)
	}
	if _, err := product([]Param{x, x}); err == nil {
		t.Error("Product with a repeated name: no error")
	}
	if _, err := ListParam("x", ""); err == nil {
		t.Error("ListParam with no values: no error")
	}
	if _, err := ListParam("{x}", "1"); err == nil {
		t.Error("ListParam with braces in the name: no error")
	}
}

package valgrind

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"runtime"
	"testing"
)

// TestNative: outside valgrind every request leaves the default answer
// and changes nothing.
func TestNative(t *testing.T) {
	if n := Running(); n != 0 {
		t.Fatalf("Running() = %d natively, want 0", n)
	}
	for _, def := range []uintptr{0, 1, 42, ^uintptr(0)} {
		if got := request(def, reqRunningOnValgrind, 1, 2, 3, 4, 5); got != def {
			t.Errorf("request with default %d = %d natively", def, got)
		}
	}
	// The callgrind requests return nothing; natively they must not fault.
	ToggleCollect()
	ZeroStats()
	DumpStats()
	DumpStatsAt("native")
	StartInstrumentation()
	StopInstrumentation()
	if got, want := Supported, runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"; got != want {
		t.Errorf("Supported = %v on %s", got, runtime.GOARCH)
	}
}

// TestRequestCodes: the request codes are valgrind.h's and callgrind.h's.
func TestRequestCodes(t *testing.T) {
	for _, tt := range []struct {
		name      string
		got, want uint32
	}{
		{"RUNNING_ON_VALGRIND", reqRunningOnValgrind, 0x1001},
		{"CALLGRIND_DUMP_STATS", reqDumpStats, 0x43540000},
		{"CALLGRIND_ZERO_STATS", reqZeroStats, 0x43540001},
		{"CALLGRIND_TOGGLE_COLLECT", reqToggleCollect, 0x43540002},
		{"CALLGRIND_DUMP_STATS_AT", reqDumpStatsAt, 0x43540003},
		{"CALLGRIND_START_INSTRUMENTATION", reqStartInstrumentation, 0x43540004},
		{"CALLGRIND_STOP_INSTRUMENTATION", reqStopInstrumentation, 0x43540005},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %#x, want %#x", tt.name, tt.got, tt.want)
		}
	}
}

// requestCode is request's machine code, as valgrind.h's
// VALGRIND_DO_CLIENT_REQUEST_EXPR emits it, with Go's ABI0 stack offsets
// (the default at 8(SP), the block from 16(SP), the result at 64(SP)).
var requestCode = map[string][]byte{
	"amd64": {
		0x48, 0x8d, 0x44, 0x24, 0x10, // LEAQ 0x10(SP), AX: the block's address
		0x48, 0x8b, 0x54, 0x24, 0x08, // MOVQ 0x8(SP), DX: the default
		// rolq $3, %rdi; rolq $13; rolq $61; rolq $51: REX.W, C1 /0 ib
		// (ROL r/m64, imm8), ModRM C7 (register, /0, RDI), the count.
		0x48, 0xc1, 0xc7, 0x03,
		0x48, 0xc1, 0xc7, 0x0d,
		0x48, 0xc1, 0xc7, 0x3d,
		0x48, 0xc1, 0xc7, 0x33,
		0x48, 0x87, 0xdb, // xchgq %rbx, %rbx: REX.W, 87 /r, ModRM DB (RBX, RBX)
		0x48, 0x89, 0x54, 0x24, 0x40, // MOVQ DX, 0x40(SP): the result
		0xc3, // RET
	},
	"arm64": words(
		0xf94007e3, // MOVD 8(RSP), R3: the default
		0x910043e4, // ADD $16, RSP, R4: the block's address
		// ror x12, x12, #3; #13; #51; #61: EXTR X12, X12, X12, #n
		// (0x93C00000 | Rm<<16 | n<<10 | Rn<<5 | Rd, all 12).
		0x93cc0d8c, 0x93cc358c, 0x93cccd8c, 0x93ccf58c,
		0xaa0a014a, // orr x10, x10, x10: 0xAA000000 | Rm<<16 | Rn<<5 | Rd, all 10
		0xf90023e3, // MOVD R3, 64(RSP): the result
		0xd65f03c0, // RET
	),
}

func words(ws ...uint32) []byte {
	var b []byte
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// TestMagicSequence: the running binary holds request's machine code
// exactly as valgrind recognises it, once. (For arm64, run the test with
// GOARCH=arm64 go test -exec qemu-aarch64-static.)
func TestMagicSequence(t *testing.T) {
	want, ok := requestCode[runtime.GOARCH]
	if !ok {
		t.Skipf("client requests are implemented for amd64 and arm64, not %s", runtime.GOARCH)
	}
	if runtime.GOOS != "linux" {
		t.Skipf("the test reads the ELF executable; %s uses another format", runtime.GOOS)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text := f.Section(".text")
	if text == nil {
		t.Fatalf("%s has no .text section", exe)
	}
	code, err := text.Data()
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(code, want); n != 1 {
		t.Errorf("request's code appears %d times in %s, want once: % x", n, exe, want)
	}
}

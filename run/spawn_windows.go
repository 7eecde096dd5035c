package run

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/chronograph/chronograph/internal/wine"
	"golang.org/x/sys/windows"
)

// sysProcAttr starts the child in a process group of its own
// (CREATE_NEW_PROCESS_GROUP): a Ctrl-C on the console is then ignored by
// the child and reaches only chrono, which ends the run through the
// child's job object, with everything the command started.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// group is the job object a run's process is put in right after it
// starts (the processes it starts join it): the windows process group.
// The job is killed on close, so that even if chrono itself is killed,
// the handle's closing ends every process of the run.
type group struct {
	job  windows.Handle
	proc windows.Handle // the command's process, for its peak memory
}

// groups holds the group of each running process, by pid.
var groups sync.Map // int -> *group

// attachGroup puts p in a new job object that kills its processes when
// closed; a process that has already ended gets none. A process the command starts before the assignment (within
// microseconds of its start) escapes the job: Go's os.StartProcess
// cannot start a process suspended or inside a job.
func attachGroup(p *os.Process) error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("run: CreateJobObject: %w", err)
	}
	var lim windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	lim.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&lim)), uint32(unsafe.Sizeof(lim))); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("run: SetInformationJobObject(KILL_ON_JOB_CLOSE): %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|
		windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(p.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("run: OpenProcess(%d): %w", p.Pid, err)
	}
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		// A command that ends at once (a program not found, exit 3) can
		// be gone before the assignment, which then fails with "Access
		// denied": nothing of it is left to kill, and its CPU times
		// come from its process state.
		ended := false
		if ev, werr := windows.WaitForSingleObject(h, 0); werr == nil && ev == windows.WAIT_OBJECT_0 {
			ended = true
		}
		windows.CloseHandle(h)
		if ended {
			return nil
		}
		return fmt.Errorf("run: AssignProcessToJobObject: %w (is chrono in a job that forbids nested jobs?)", err)
	}
	groups.Store(p.Pid, &group{job: job, proc: h})
	return nil
}

// killGroup ends every process of p's job (TerminateJobObject), or p
// alone when it has none.
func killGroup(p *os.Process) {
	if g, ok := groups.Load(p.Pid); ok {
		_ = windows.TerminateJobObject(g.(*group).job, 1)
		return
	}
	p.Kill()
}

// releaseGroup closes p's job (which kills whatever is left in it) and
// process handles.
func releaseGroup(p *os.Process) {
	if g, ok := groups.LoadAndDelete(p.Pid); ok {
		windows.CloseHandle(g.(*group).job)
		windows.CloseHandle(g.(*group).proc)
	}
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION (times in
// 100 ns units), which golang.org/x/sys/windows does not declare.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// fillUsage takes the run's CPU times from its job (every process of the
// command, as rusage counts the children waited for), not from
// GetProcessTimes of the command's process alone. Peak memory, page
// faults and context switches stay -1: the job's peak is committed
// memory, not a resident set (see usageUnavailable).
func fillUsage(s *Sample, ps *os.ProcessState) {
	g, ok := groups.Load(s.Pid)
	if !ok {
		return
	}
	var a jobAccounting
	if err := windows.QueryInformationJobObject(g.(*group).job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&a)), uint32(unsafe.Sizeof(a)), nil); err != nil {
		return // ProcessState's times stand
	}
	s.User, s.Sys = time.Duration(a.TotalUserTime)*100, time.Duration(a.TotalKernelTime)*100
}

// childCPUUnavailable says why a child's CPU times cannot be read under
// Wine: its GetProcessTimes on a child returns the caller's times, and
// its job accounting zeros.
func childCPUUnavailable() string {
	if v, ok := wine.Version(); ok {
		return "under Wine " + v + " a child's CPU times are not real (GetProcessTimes returns the caller's, job object accounting zeros): measure on Windows for user and sys times"
	}
	return ""
}

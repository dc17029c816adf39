//! A pbrain engine as a child process: every wait has a deadline, nothing blocks forever.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why waiting for an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer before the deadline.
    Timeout,
    /// The process exited or closed its output.
    Crash,
}

/// One running engine.
pub struct EngineProc {
    /// The command line it was started with.
    pub cmd: String,
    /// Its name (from ABOUT, or the program's file name).
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// When the engine last wrote a line (any line, `MESSAGE` included).
    last_output: Arc<Mutex<Instant>>,
}

/// Split a command line into words, honouring single and double quotes.
#[must_use]
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for ch in cmd.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                has = true;
            }
            None if ch.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            None => cur.push(ch),
        }
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    out
}

impl EngineProc {
    /// Start `cmd` and ask its name (`ABOUT`, at most `about_timeout`; an engine that does not
    /// answer keeps its file name).
    ///
    /// # Errors
    /// The process could not be started.
    pub fn start(cmd: &str, about_timeout: Duration) -> Result<EngineProc, String> {
        let words = split_command(cmd);
        let (prog, args) = words.split_first().ok_or("empty engine command")?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{cmd}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        let last_output = Arc::new(Mutex::new(Instant::now()));
        let stamp = last_output.clone();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if let Ok(mut t) = stamp.lock() {
                            *t = Instant::now();
                        }
                        let l = String::from_utf8_lossy(&buf).trim().to_string();
                        if !l.is_empty() && tx.send(l).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let file_name = std::path::Path::new(prog)
            .file_name()
            .map_or_else(|| prog.clone(), |s| s.to_string_lossy().into_owned());
        let mut e = EngineProc {
            cmd: cmd.to_string(),
            name: file_name,
            child,
            stdin,
            lines,
            last_output,
        };
        if e.send("ABOUT").is_ok() {
            if let Ok(l) = e.recv_line(Instant::now() + about_timeout) {
                if let Some(n) = about_name(&l) {
                    e.name = n;
                }
            }
        }
        Ok(e)
    }

    /// Send one line (or several, joined by newlines).
    ///
    /// # Errors
    /// [`Failure::Crash`] when the pipe is closed.
    pub fn send(&mut self, s: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{s}").map_err(|_| Failure::Crash)?;
        self.stdin.flush().map_err(|_| Failure::Crash)
    }

    /// The next line that is not `MESSAGE …`/`DEBUG …`, before `deadline`.
    ///
    /// # Errors
    /// [`Failure::Timeout`] or [`Failure::Crash`].
    pub fn recv_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        loop {
            let l = self.recv_raw(deadline)?;
            let up = l.to_ascii_uppercase();
            if up.starts_with("MESSAGE") || up.starts_with("DEBUG") {
                continue;
            }
            return Ok(l);
        }
    }

    /// The next line of any kind (`MESSAGE` lines included), before `deadline`.
    ///
    /// # Errors
    /// [`Failure::Timeout`] or [`Failure::Crash`].
    pub fn recv_raw(&mut self, deadline: Instant) -> Result<String, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Failure::Crash),
        }
    }

    /// Wait until the engine has written nothing for `quiet`, at most `10 * quiet` in all.
    ///
    /// Some engines (Rapfi among them) drop a command that arrives while they are still
    /// finishing the move they have just printed, and then read the move's coordinates as a
    /// command of their own: a fast reply of the other side can land in that window. Waiting
    /// for the output to settle before the next command closes it; the wait is spent before
    /// the engine's clock starts.
    pub fn settle(&self, quiet: Duration) {
        if quiet.is_zero() {
            return;
        }
        let give_up = Instant::now() + quiet * 10;
        loop {
            let last = self
                .last_output
                .lock()
                .map_or_else(|_| Instant::now(), |t| *t);
            let now = Instant::now();
            let ready = last + quiet;
            if ready <= now || now >= give_up {
                return;
            }
            std::thread::sleep(ready.min(give_up) - now);
        }
    }

    /// Whether the process has exited.
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Ask the engine to end, and kill it if it does not exit within `grace`.
    pub fn stop(&mut self, grace: Duration) {
        let _ = self.send("END");
        let start = Instant::now();
        while start.elapsed() < grace {
            if self.exited() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        if !self.exited() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The `name="…"` value of an ABOUT answer.
#[must_use]
pub fn about_name(line: &str) -> Option<String> {
    let i = line.find("name=\"")? + 6;
    let rest = &line[i..];
    let j = rest.find('"')?;
    let n = rest[..j].trim();
    (!n.is_empty()).then(|| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_splitting_and_about() {
        assert_eq!(split_command("a b  c"), ["a", "b", "c"]);
        assert_eq!(
            split_command("'/x y/e' --f \"1 2\" ''"),
            ["/x y/e", "--f", "1 2", ""]
        );
        assert_eq!(
            about_name("name=\"renju-engine\", version=\"0.1\"").as_deref(),
            Some("renju-engine")
        );
        assert_eq!(about_name("hello"), None);
    }
}

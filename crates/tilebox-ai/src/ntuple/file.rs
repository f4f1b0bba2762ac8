//! The weights file, `players/<id>.weights` in the data directory: see `docs/weights.md`.
//!
//! Everything little-endian, in this order:
//!
//! | field | size |
//! |---|---|
//! | magic `TBOXNTW\n` | 8 |
//! | format version, [`FORMAT`] | u32 |
//! | variant id: length, UTF-8 | u16 + n |
//! | the rules' fingerprint ([`fingerprint`]) | u64 |
//! | preview family (0 or 1) | u8 |
//! | tuples: count, then each: length, cells | u8 + (u8 + n) each |
//! | stages: count, the lowest rank of each, how many begun (format 3) | u8 + n + u8 |
//! | seed of the run | u64 |
//! | games done | u64 |
//! | moves done | u64 |
//! | how the run plays its games, [`Method::byte`] (format 2; a format 1 file's is 0) | u8 |
//! | how the run learns, [`Rule::byte`] (format 3; before, TD(0)) | u8 |
//! | largest weight in size | f32 |
//! | weight count, every stage's | u64 |
//! | weights | f32 each |
//! | checksum: FNV-1a 64 of every byte before it | u64 |
//! | with [`Rule::Coherence`]: each weight's accumulators `E` and `A` | 2 × f32 each |
//! | with [`Rule::Coherence`]: FNV-1a 64 of the accumulators' bytes | u64 |
//!
//! A player reads up to the first checksum; training reads on to the end.
//!
//! A file is written whole to `<name>.tmp` beside it, synced, then renamed over the old one.
//! Reading refuses, with a [`WeightsError`] naming the file and the cause, a file that is short,
//! not a weights file, of a newer format, corrupt (checksum), or of another variant or other
//! rules, and, to go on training, one of a newer training method; it never panics.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;
use tilebox_core::files::{FileError, io_words, open_regular};
use tilebox_sliding::Variant;

use std::sync::atomic::AtomicU64;

use super::train::{Method, Rule};
use super::{Layout, LayoutError, Network, PlayNetwork};
use crate::network::Quantizer;

/// The first 8 bytes of every weights file.
pub const MAGIC: [u8; 8] = *b"TBOXNTW\n";

/// The format version this build writes and the newest it reads. Format 1 (before the
/// training method was kept) is read as a run of [`Method::FromStart`]; formats 1 and 2 (before
/// stages and the learning rule were kept) as one stage learned by [`Rule::Td0`].
pub const FORMAT: u32 = 3;

/// The file name of a variant's weights: `<id>.weights`.
pub fn file_name(id: &str) -> String {
    format!("{id}.weights")
}

/// The folder of the players in the app's own folder (`<data dir>/tilebox`).
pub const FOLDER: &str = "players";

/// The players folder of the data directory `data_dir`: `<data dir>/tilebox/players`.
pub fn players_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("tilebox").join(FOLDER)
}

/// The weights file of variant `id` under the data directory's `tilebox` folder:
/// `<data dir>/tilebox/players/<id>.weights`.
pub fn weights_path(data_dir: &Path, id: &str) -> PathBuf {
    players_dir(data_dir).join(file_name(id))
}

/// Why a weights file is refused.
#[derive(Debug, Error)]
pub enum Cause {
    /// It cannot be opened (missing, not a regular file, no permission).
    #[error("{0}")]
    Open(#[from] FileError),
    /// It cannot be read or written.
    #[error("{}", io_words(.0))]
    Io(#[from] io::Error),
    /// It ends too soon.
    #[error("too short: it ends inside the {0}")]
    Short(&'static str),
    /// It does not start with the magic.
    #[error("not a weights file")]
    NotWeights,
    /// Its format is newer than this build reads.
    #[error("format {0} is newer than this build reads ({FORMAT})")]
    Newer(u32),
    /// Its run plays by a training method this build does not know: its network plays, but
    /// its training cannot go on here.
    #[error("trained by method {0}, newer than this build can go on with")]
    NewerMethod(u8),
    /// Its run learns by a rule this build does not know: its network plays, but its
    /// training cannot go on here.
    #[error("learned by rule {0}, newer than this build can go on with")]
    NewerRule(u8),
    /// Its stages begun are none, or more than it has.
    #[error("{begun} stages begun of {stages}")]
    Begun {
        /// Begun, as the file says.
        begun: u8,
        /// The layout's.
        stages: usize,
    },
    /// The checksum does not match.
    #[error("corrupt: the checksum does not match")]
    Corrupt,
    /// Its layout is not one a network can have.
    #[error("bad layout: {0}")]
    Layout(#[from] LayoutError),
    /// A weight (counted from 1), or the largest weight's size in the header (0), is not a
    /// number (NaN) or is infinite: no run writes one, so the file was made otherwise.
    #[error("{}", not_finite_words(*.0))]
    NotFinite(u64),
    /// The folder it goes in (the error's path) is a file.
    #[error("it is a file, not a folder")]
    NotAFolder,
    /// Its weight count is not the layout's.
    #[error("{found} weights where the layout has {expected}")]
    WeightCount {
        /// In the file.
        found: u64,
        /// The layout's.
        expected: u64,
    },
    /// It was trained on another variant.
    #[error("trained on {found}, not {expected}")]
    OtherVariant {
        /// The file's variant id.
        found: String,
        /// The variant asked for.
        expected: String,
    },
    /// It was trained on the same id with other rules.
    #[error("trained on other rules of {0} (the variant changed since)")]
    OtherRules(String),
}

/// "weight 7 is not a finite number (NaN or infinite)"; 0 is the header's largest weight.
fn not_finite_words(index: u64) -> String {
    match index {
        0 => "the largest weight's size is not a finite number (NaN or infinite)".to_string(),
        i => format!("weight {i} is not a finite number (NaN or infinite)"),
    }
}

/// A weights file refused: the file and why. Displays as one line, `<file>: <cause>`.
#[derive(Debug, Error)]
#[error("{}: {cause}", path.display())]
pub struct WeightsError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub cause: Cause,
}

impl WeightsError {
    /// Whether the file is simply not there (nothing trained yet): no refusal to tell.
    pub fn is_missing(&self) -> bool {
        matches!(self.cause, Cause::Open(FileError::Missing))
    }
}

/// Where a run stands: what resuming it needs beside the weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunState {
    /// The run's seed.
    pub seed: u64,
    /// Games done: the next game's index.
    pub games: u64,
    /// Moves played in all.
    pub moves: u64,
    /// How the run plays its games.
    pub method: Method,
    /// How the run learns.
    pub rule: Rule,
}

/// FNV-1a 64 offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64 prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`, continuing from `hash`.
fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME);
    }
    hash
}

/// The fingerprint of a variant's rules as training sees them: FNV-1a 64 of the JSON of its
/// side, ladder, merges, motion, spawns, spawn cells, preview and scoring (not its id, names,
/// start or win). Another variant's file, or one trained before the rules changed, is refused.
pub fn fingerprint(variant: &Variant) -> u64 {
    let rules = serde_json::json!([
        variant.side,
        variant.tiles,
        variant.merges,
        variant.motion,
        variant.spawn,
        variant.spawn_at,
        variant.preview,
        variant.score,
    ]);
    fnv(FNV_OFFSET, rules.to_string().as_bytes())
}

/// A writer that keeps the checksum of what went through it.
struct Summed<W> {
    inner: W,
    hash: u64,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.hash = fnv(self.hash, bytes);
        self.inner.write_all(bytes)
    }

    /// Puts each of `items`' bytes, in chunks, then the checksum so far (not itself summed).
    fn put_section<B: AsRef<[u8]>>(&mut self, items: impl Iterator<Item = B>) -> io::Result<()> {
        let mut chunk = Vec::with_capacity(1 << 16);
        for item in items {
            chunk.extend_from_slice(item.as_ref());
            if chunk.len() >= 1 << 16 {
                self.put(&chunk)?;
                chunk.clear();
            }
        }
        self.put(&chunk)?;
        let sum = self.hash;
        self.inner.write_all(&sum.to_le_bytes())
    }
}

/// The temporary file a save of the file at `path` is written to before it is renamed over it:
/// `<name>.tmp` beside it.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Writes `network` with `run` as variant `variant`'s weights at `path`, atomically (a
/// temporary file beside it, synced, renamed over it); the folder is made if missing.
pub fn save(
    path: &Path,
    variant: &Variant,
    network: &Network,
    run: &RunState,
) -> Result<(), WeightsError> {
    let fail = |at: &Path, cause: Cause| WeightsError {
        path: at.to_path_buf(),
        cause,
    };
    if let Some(dir) = path.parent() {
        make_folder(dir)?;
    }
    let tmp = temp_path(path);
    // Each failure under the name it is of: the temporary file's, or the file's.
    let result = write_to(&tmp, variant, network, run)
        .map_err(|cause| fail(&tmp, cause))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| fail(path, Cause::Io(e))));
    if result.is_err() && std::fs::symlink_metadata(&tmp).is_ok_and(|m| m.is_file()) {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Makes the folder `dir` (and those above it) if missing: one that is a file is refused in
/// words ([`Cause::NotAFolder`]), not in the system's ("File exists").
pub fn make_folder(dir: &Path) -> Result<(), WeightsError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        // The first of `dir` and the folders above it that is there and not a folder.
        let file = dir
            .ancestors()
            .find(|a| std::fs::metadata(a).is_ok_and(|m| !m.is_dir()));
        match file {
            Some(f) => WeightsError {
                path: f.to_path_buf(),
                cause: Cause::NotAFolder,
            },
            None => WeightsError {
                path: dir.to_path_buf(),
                cause: Cause::Io(e),
            },
        }
    })
}

fn write_to(tmp: &Path, variant: &Variant, network: &Network, run: &RunState) -> Result<(), Cause> {
    // A regular file only: a named pipe there would hold the thread.
    let file = open_regular(
        tmp,
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true),
    )?;
    let mut out = Summed {
        inner: BufWriter::with_capacity(1 << 20, file),
        hash: FNV_OFFSET,
    };
    let layout = network.layout();
    out.put(&MAGIC)?;
    out.put(&FORMAT.to_le_bytes())?;
    let id = variant.id.as_bytes();
    let len = u16::try_from(id.len()).map_err(io::Error::other)?;
    out.put(&len.to_le_bytes())?;
    out.put(id)?;
    out.put(&fingerprint(variant).to_le_bytes())?;
    out.put(&[u8::from(layout.preview())])?;
    out.put(&[layout.tuples().len() as u8])?;
    for t in layout.tuples() {
        out.put(&[t.len() as u8])?;
        out.put(t)?;
    }
    out.put(&[layout.stages().len() as u8])?;
    out.put(layout.stages())?;
    out.put(&[network.begun() as u8])?;
    out.put(&run.seed.to_le_bytes())?;
    out.put(&run.games.to_le_bytes())?;
    out.put(&run.moves.to_le_bytes())?;
    out.put(&[run.method.byte()])?;
    // The network says how it learns: its accumulators are what the rule needs.
    let rule = if network.coheres() {
        Rule::Coherence
    } else {
        Rule::Td0
    };
    out.put(&[rule.byte()])?;
    let max = network.weights().fold(0f32, |m, w| m.max(w.abs()));
    out.put(&max.to_le_bytes())?;
    out.put(&(layout.weight_count() as u64).to_le_bytes())?;
    out.put_section(network.weights().map(f32::to_le_bytes))?;
    if let Some(accumulators) = network.accumulators() {
        // Their own checksum, which a player (reading the weights only) never reads.
        out.hash = FNV_OFFSET;
        out.put_section(accumulators.map(|(e, a)| {
            let mut both = [0u8; 8];
            both[..4].copy_from_slice(&e.to_le_bytes());
            both[4..].copy_from_slice(&a.to_le_bytes());
            both
        }))?;
    }
    let file = out.inner.into_inner().map_err(|e| e.into_error())?;
    Ok(file.sync_all()?)
}

/// A reader that keeps the checksum of what came through it, and names what ends too soon.
struct Source<R> {
    inner: R,
    hash: u64,
    /// Bytes read so far.
    at: u64,
}

impl<R: Read> Source<R> {
    fn take(&mut self, buf: &mut [u8], what: &'static str) -> Result<(), Cause> {
        self.inner.read_exact(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => Cause::Short(what),
            _ => Cause::Io(e),
        })?;
        self.hash = fnv(self.hash, buf);
        self.at += buf.len() as u64;
        Ok(())
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, Cause> {
        let mut b = [0u8; 1];
        self.take(&mut b, what)?;
        Ok(b[0])
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, Cause> {
        let mut b = [0u8; 2];
        self.take(&mut b, what)?;
        Ok(u16::from_le_bytes(b))
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, Cause> {
        let mut b = [0u8; 4];
        self.take(&mut b, what)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, Cause> {
        let mut b = [0u8; 8];
        self.take(&mut b, what)?;
        Ok(u64::from_le_bytes(b))
    }
}

/// What a file's header says.
struct Header {
    id: String,
    fingerprint: u64,
    layout: Layout,
    /// The stages begun, 1 to the layout's.
    begun: usize,
    run: RunState,
    max_abs: f32,
}

/// The file at `path` opened for reading through a buffer of `capacity` bytes, its checksum
/// kept from its first byte.
fn open_source(path: &Path, capacity: usize) -> Result<Source<BufReader<File>>, Cause> {
    let file = open_regular(path, std::fs::OpenOptions::new().read(true))?;
    Ok(Source {
        inner: BufReader::with_capacity(capacity, file),
        hash: FNV_OFFSET,
        at: 0,
    })
}

/// Reads the file at `path`: the header, then every weight handed to the sink `make` builds
/// from the header, then the checksum; then checks the variant.
fn read<S: Sink>(
    path: &Path,
    variant: &Variant,
    make: impl FnOnce(&Header) -> S,
) -> Result<(S, Header), WeightsError> {
    let fail = |cause: Cause| WeightsError {
        path: path.to_path_buf(),
        cause,
    };
    let mut src = open_source(path, 1 << 20).map_err(fail)?;
    let (header, out) = read_body(&mut src, make).map_err(fail)?;
    // A player stops at the first checksum; training's part may follow.
    let last = header.run.rule == Rule::Td0;
    check_sum(&mut src, last).map_err(fail)?;
    if header.run.rule == Rule::Coherence {
        // Its accumulators are not read, but a file cut short in them is refused all the same.
        let rest = 8 * header.layout.weight_count() as u64 + 8;
        let len = src
            .inner
            .get_ref()
            .metadata()
            .map_err(|e| fail(Cause::Io(e)))?
            .len();
        match len.cmp(&(src.at + rest)) {
            std::cmp::Ordering::Less => return Err(fail(Cause::Short("accumulators"))),
            std::cmp::Ordering::Greater => return Err(fail(Cause::Corrupt)),
            std::cmp::Ordering::Equal => {}
        }
    }
    check_variant(&header, variant).map_err(fail)?;
    Ok((out, header))
}

/// Checks the checksum that ends a part of a file (and starts the next part's), and, when it
/// is the `last`, that nothing follows it.
fn check_sum<R: Read>(src: &mut Source<R>, last: bool) -> Result<(), Cause> {
    let mut sum = [0u8; 8];
    src.inner.read_exact(&mut sum).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => Cause::Short("checksum"),
        _ => Cause::Io(e),
    })?;
    // Anything after the checksum is not of the file as written.
    let mut more = [0u8; 1];
    src.at += 8;
    let trailing = if last { src.inner.read(&mut more)? } else { 0 };
    if u64::from_le_bytes(sum) != src.hash || trailing != 0 {
        return Err(Cause::Corrupt);
    }
    src.hash = FNV_OFFSET;
    Ok(())
}

/// Reads the accumulators of `count` weights (after the weights' checksum), and their
/// checksum, which ends the file.
fn read_accumulators<R: Read>(src: &mut Source<R>, count: usize) -> Result<Vec<AtomicU64>, Cause> {
    let mut out = Vec::with_capacity(count);
    let mut left = count;
    let mut buf = vec![0u8; 1 << 16];
    while left > 0 {
        let take = (left * 8).min(buf.len());
        src.take(&mut buf[..take], "accumulators")?;
        for pair in buf[..take].chunks_exact(8) {
            let (e, a) = pair.split_at(4);
            let (e, a) = (
                f32::from_le_bytes([e[0], e[1], e[2], e[3]]),
                f32::from_le_bytes([a[0], a[1], a[2], a[3]]),
            );
            if !e.is_finite() || !a.is_finite() {
                return Err(Cause::NotFinite(out.len() as u64 + 1));
            }
            out.push(AtomicU64::new(
                u64::from(e.to_bits()) | u64::from(a.to_bits()) << 32,
            ));
        }
        left -= take / 8;
    }
    check_sum(src, true)?;
    Ok(out)
}

/// Checks that a header is of `variant` and its rules.
fn check_variant(header: &Header, variant: &Variant) -> Result<(), Cause> {
    if header.id != variant.id {
        return Err(Cause::OtherVariant {
            found: header.id.clone(),
            expected: variant.id.clone(),
        });
    }
    if header.fingerprint != fingerprint(variant) {
        return Err(Cause::OtherRules(header.id.clone()));
    }
    Ok(())
}

/// Where the run of `variant`'s weights at `path` stands, and its layout, from the file's
/// header alone (a few dozen bytes: the weights and the checksum are not read, so a file
/// corrupt past its header is found only when it is loaded).
pub fn read_run(path: &Path, variant: &Variant) -> Result<(RunState, Layout), WeightsError> {
    let fail = |cause: Cause| WeightsError {
        path: path.to_path_buf(),
        cause,
    };
    let mut src = open_source(path, 4096).map_err(fail)?;
    let header = read_header(&mut src).map_err(fail)?;
    check_variant(&header, variant).map_err(fail)?;
    Ok((header.run, header.layout))
}

fn read_body<R: Read, S: Sink>(
    src: &mut Source<R>,
    make: impl FnOnce(&Header) -> S,
) -> Result<(Header, S), Cause> {
    let header = read_header(src)?;
    if !header.max_abs.is_finite() {
        return Err(Cause::NotFinite(0));
    }
    let mut sink = make(&header);
    let mut left = header.layout.weight_count();
    let mut buf = vec![0u8; 1 << 16];
    let mut index = 0u64;
    while left > 0 {
        let take = (left * 4).min(buf.len());
        src.take(&mut buf[..take], "weights")?;
        for w in buf[..take].chunks_exact(4) {
            let w = f32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            index += 1;
            // NaN or infinite would play and learn nonsense (and a NaN never compares).
            if !w.is_finite() {
                return Err(Cause::NotFinite(index));
            }
            sink.push(w);
        }
        left -= take / 4;
    }
    Ok((header, sink))
}

/// Reads a file's header, up to its weights.
fn read_header<R: Read>(src: &mut Source<R>) -> Result<Header, Cause> {
    let mut magic = [0u8; 8];
    src.take(&mut magic, "magic")?;
    if magic != MAGIC {
        return Err(Cause::NotWeights);
    }
    let format = src.u32("format version")?;
    if format > FORMAT {
        return Err(Cause::Newer(format));
    }
    if format == 0 {
        return Err(Cause::NotWeights);
    }
    let len = src.u16("variant id")?;
    let mut id = vec![0u8; usize::from(len)];
    src.take(&mut id, "variant id")?;
    let id = String::from_utf8_lossy(&id).into_owned();
    let fingerprint = src.u64("fingerprint")?;
    let preview = src.u8("layout")? != 0;
    let count = src.u8("layout")?;
    let mut tuples = Vec::new();
    for _ in 0..count {
        let n = src.u8("layout")?;
        let mut cells = vec![0u8; usize::from(n)];
        src.take(&mut cells, "layout")?;
        tuples.push(cells);
    }
    let layout = Layout::new(tuples, preview)?;
    let (layout, begun) = if format >= 3 {
        let n = src.u8("layout")?;
        let mut stages = vec![0u8; usize::from(n)];
        src.take(&mut stages, "layout")?;
        let layout = layout.with_stages(stages)?;
        let begun = src.u8("layout")?;
        if begun == 0 || usize::from(begun) > layout.stages().len() {
            return Err(Cause::Begun {
                begun,
                stages: layout.stages().len(),
            });
        }
        (layout, usize::from(begun))
    } else {
        (layout, 1)
    };
    let run = RunState {
        seed: src.u64("run state")?,
        games: src.u64("run state")?,
        moves: src.u64("run state")?,
        method: match format {
            1 => Method::FromStart,
            _ => Method::from_byte(src.u8("run state")?),
        },
        rule: match format {
            1 | 2 => Rule::Td0,
            _ => Rule::from_byte(src.u8("run state")?),
        },
    };
    let max_abs = f32::from_bits(src.u32("run state")?);
    let n = src.u64("weight count")?;
    let expected = layout.weight_count() as u64;
    if n != expected {
        return Err(Cause::WeightCount { found: n, expected });
    }
    Ok(Header {
        id,
        fingerprint,
        layout,
        begun,
        run,
        max_abs,
    })
}

/// Reads `variant`'s weights at `path` for training: the network in `f32`, with its
/// accumulators when it learns by temporal coherence, and where the run stands. Holds 4 bytes a
/// weight, and 8 more with the accumulators.
pub fn load_training(path: &Path, variant: &Variant) -> Result<(Network, RunState), WeightsError> {
    let fail = |cause: Cause| WeightsError {
        path: path.to_path_buf(),
        cause,
    };
    let mut src = open_source(path, 1 << 20).map_err(fail)?;
    let (header, full) = read_body(&mut src, |h| Full {
        weights: Vec::with_capacity(h.layout.weight_count()),
    })
    .map_err(fail)?;
    let run = header.run;
    // Whether the file holds the accumulators after the weights' checksum.
    let coherent = match run.rule {
        Rule::Td0 => false,
        Rule::Coherence => true,
        // The file's checksum first: a corrupt one is refused as corrupt.
        Rule::Newer(byte) => {
            check_sum(&mut src, false).map_err(fail)?;
            check_variant(&header, variant).map_err(fail)?;
            return Err(fail(Cause::NewerRule(byte)));
        }
    };
    check_sum(&mut src, !coherent).map_err(fail)?;
    let accumulators = if coherent {
        Some(read_accumulators(&mut src, header.layout.weight_count()).map_err(fail)?)
    } else {
        None
    };
    check_variant(&header, variant).map_err(fail)?;
    if let Method::Newer(byte) = run.method {
        return Err(fail(Cause::NewerMethod(byte)));
    }
    // The counts were checked against the layout as they were read.
    let network = Network::from_weights(&header.layout, full.weights)
        .map(|n| n.with_begun(header.begun))
        .ok_or(Cause::Short("weights"))
        .map_err(fail)?;
    let network = match accumulators {
        Some(a) => network
            .with_accumulators(a)
            .ok_or(Cause::Short("accumulators"))
            .map_err(fail)?,
        None => network,
    };
    Ok((network, run))
}

/// Reads `variant`'s weights at `path` for playing: 16-bit weights (2 bytes a weight; the
/// `f32` weights are never all held).
pub fn load_player(path: &Path, variant: &Variant) -> Result<PlayNetwork, WeightsError> {
    let (q, _) = read(path, variant, |h| {
        Quantizer::new(&h.layout, h.max_abs, h.begun)
    })?;
    Ok(q.finish())
}

/// Checks the whole file at `path` as [`load_player`] would read it (the checksum included),
/// holding none of its weights; returns where its run stands.
pub fn check(path: &Path, variant: &Variant) -> Result<RunState, WeightsError> {
    read(path, variant, |_| Nowhere).map(|(_, header)| header.run)
}

/// Where the weights read go.
trait Sink {
    fn push(&mut self, w: f32);
}

/// Weights read only to be checked.
struct Nowhere;

impl Sink for Nowhere {
    fn push(&mut self, _: f32) {}
}

/// Every weight in `f32`.
struct Full {
    weights: Vec<f32>,
}

impl Sink for Full {
    fn push(&mut self, w: f32) {
        self.weights.push(w);
    }
}

impl Sink for Quantizer {
    fn push(&mut self, w: f32) {
        Quantizer::push(self, w);
    }
}

//! AI workers: the tasks that claim the AI's jobs from the database (its moves, the analyses
//! and the reviews of finished games) and do them. `serve` runs one embedded (so one machine
//! needs nothing more); `swapboard ai-worker` runs one apart from the web servers, on any
//! machine that reaches the database, so AI capacity grows by adding workers. A claim holds
//! a job for a lease, which the worker renews for as long as it works on the job; a worker
//! that dies mid-search leaves its job to be claimed again once the lease has run out.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::{Notify, Semaphore, watch};
use tokio::task::JoinHandle;

use crate::games::moves::{Plies, announce_plies};
use crate::limits::Limits;
use crate::live::Hub;
use crate::live::messages::Views;
use crate::store::{LeasedJob, ReviewJob, Store};
use crate::{ai, analysis};

/// How long a claim holds a job unrenewed, in seconds. A worker renews its claim every
/// third of it for as long as it works on the job, so a search of any length keeps its job
/// and only a worker gone silent (killed, cut off) loses it, at most this long after.
pub const DEFAULT_LEASE_S: u32 = 15;

/// The options of `swapboard ai-worker`.
#[derive(Clone, Debug, clap::Args)]
pub struct WorkerOptions {
    /// The database URL (`sqlite://…` or `postgres://…`), the one `serve` is given.
    #[arg(long, value_name = "URL", env = "DATABASE_URL")]
    pub database: String,
    /// How many searches run at once, one core each.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// How long a claim holds a job unrenewed, in seconds (a worker renews it every third
    /// of it while it works); a worker that dies mid-search has its job taken again after
    /// it.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_LEASE_S,
          value_parser = clap::value_parser!(u32).range(1..=3600))]
    pub lease_s: u32,
    /// How often an idle worker looks for jobs, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 250,
          value_parser = clap::value_parser!(u32).range(10..=60_000))]
    pub poll_ms: u32,
    /// The most detailed log level shown. Default: the global level of $RUST_LOG, else
    /// info.
    #[arg(long, default_value_t = crate::options::default_log_level())]
    pub log: tracing::Level,
}

/// A running AI worker.
#[derive(Debug)]
pub struct Worker {
    store: Store,
    crew: Arc<Crew>,
    tasks: Vec<JoinHandle<()>>,
    _closing: watch::Sender<bool>,
}

/// What the tasks of one worker share.
#[derive(Debug)]
pub(crate) struct Crew {
    /// The worker's name in the claims it makes.
    name: String,
    store: Store,
    live: Arc<Hub>,
    permits: Arc<Semaphore>,
    /// Signalled by this instance when it writes a job; `None` for a worker apart.
    ready: Option<Arc<Notify>>,
    lease_ms: i64,
    poll: Duration,
    /// The plies this worker's moves added, passes forced after them included.
    plies: AtomicU64,
}

impl Worker {
    /// Opens the database (at this binary's schema: a worker never migrates it), writes the
    /// jobs of games whose AI is to move and starts `threads` tasks that claim and play jobs
    /// until [`Worker::stop`].
    pub async fn start(options: &WorkerOptions) -> anyhow::Result<Worker> {
        anyhow::ensure!(
            (1..=256).contains(&options.threads),
            "--threads must be 1 to 256, not {}",
            options.threads
        );
        let store = Store::open_as_is(&options.database).await?;
        let (closing, closing_seen) = watch::channel(false);
        // Its hub only announces (it serves no socket), so the sockets' check is moot.
        let recheck = Limits::default().socket_credential_time;
        let live = Arc::new(Hub::new(
            store.clone(),
            Box::new(Views),
            closing_seen,
            recheck,
        ));
        let resumed = ai::resume_all(&store).await?;
        tracing::info!("ai-worker: {resumed} games with an AI seat being played");
        let threads = usize::from(options.threads);
        let crew = Crew::new(
            &store,
            live,
            Arc::new(Semaphore::new(threads)),
            None,
            options,
        );
        let tasks = spawn(&crew, threads);
        Ok(Worker {
            store,
            crew,
            tasks,
            _closing: closing,
        })
    }

    /// The plies this worker's moves added so far (its moves and the passes they forced).
    pub fn plies_played(&self) -> u64 {
        self.crew.plies.load(Ordering::Relaxed)
    }

    /// Stops at once, as a killed process would: a search under way is abandoned and its
    /// job left to the lease.
    pub async fn stop(self) {
        for task in &self.tasks {
            task.abort();
        }
        for task in self.tasks {
            drop(task.await);
        }
        self.store.close().await;
    }
}

/// Runs a worker until Ctrl-C or SIGTERM (`swapboard ai-worker`), logging to stderr.
pub fn run(options: &WorkerOptions) -> anyhow::Result<()> {
    crate::signals::logged_runtime(options.log, async {
        let worker = Worker::start(options).await?;
        tracing::info!("ai-worker: {} searches at once", options.threads);
        crate::signals::termination().await;
        worker.stop().await;
        Ok(())
    })
}

impl Crew {
    /// The crew of a worker on `store`.
    pub(crate) fn new(
        store: &Store,
        live: Arc<Hub>,
        permits: Arc<Semaphore>,
        ready: Option<Arc<Notify>>,
        options: &WorkerOptions,
    ) -> Arc<Crew> {
        Arc::new(Crew {
            name: format!(
                "{}-{}-{}",
                hostname(),
                std::process::id(),
                CREWS.fetch_add(1, Ordering::Relaxed)
            ),
            store: store.clone(),
            live,
            permits,
            ready,
            lease_ms: i64::from(options.lease_s) * 1000,
            poll: Duration::from_millis(u64::from(options.poll_ms)),
            plies: AtomicU64::new(0),
        })
    }
}

/// The crews started in this process, to tell them apart.
static CREWS: AtomicU64 = AtomicU64::new(0);

/// The host's name, to tell workers apart in the jobs they hold.
fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "worker".to_owned())
}

/// Starts `tasks` tasks of the crew, each claiming and playing one job at a time.
pub(crate) fn spawn(crew: &Arc<Crew>, tasks: usize) -> Vec<JoinHandle<()>> {
    (0..tasks.max(1))
        .map(|_| tokio::spawn(work(Arc::clone(crew))))
        .collect()
}

/// One task of a worker: claims a job, does it, and when none is left waits for a signal
/// or the next poll.
async fn work(crew: Arc<Crew>) {
    loop {
        match next_job(&crew).await {
            Ok(true) => {}
            Ok(false) => idle(&crew).await,
            Err(e) => {
                tracing::warn!("ai: {e:#}");
                idle(&crew).await;
            }
        }
    }
}

/// Claims and does one job, if there is one: the jobs someone waits on first, then reviews
/// (asked again until done).
async fn next_job(crew: &Crew) -> anyhow::Result<bool> {
    if urgent_job(crew).await? {
        return Ok(true);
    }
    if let Some(job) = crew.store.claim_review(&crew.name, crew.lease_ms).await? {
        holding(crew, &job, review(crew, &job)).await?;
        return Ok(true);
    }
    Ok(false)
}

/// Claims and does a job someone waits on, if there is one: the AI's oldest waiting move
/// (a player waits on it), else the oldest analysis (a request waits on it).
async fn urgent_job(crew: &Crew) -> anyhow::Result<bool> {
    if let Some(job) = crew.store.claim_ai_job(&crew.name, crew.lease_ms).await? {
        match holding(crew, &job, ai::play_job(&crew.store, &crew.permits, &job)).await {
            Ok(Some(plies)) => announce(crew, &job.game_id, plies).await,
            Ok(None) => {}
            Err(e) => tracing::warn!(game = job.game_id, "ai: {e:#}"),
        }
        return Ok(true);
    }
    if let Some(job) = crew.store.claim_analysis(&crew.name, crew.lease_ms).await? {
        let answer = analysis::answer_analysis(&crew.store, &crew.permits, &job);
        holding(crew, &job, answer).await?;
        return Ok(true);
    }
    Ok(false)
}

/// Does `work` on a claimed job, renewing the claim's lease every third of it until the work
/// is done.
async fn holding<J: LeasedJob, T>(crew: &Crew, job: &J, work: impl Future<Output = T>) -> T {
    tokio::select! {
        done = work => done,
        never = renewing(crew, job) => match never {},
    }
}

/// Renews the claim of `job` every third of the lease, while the claim is this worker's.
async fn renewing<J: LeasedJob>(crew: &Crew, job: &J) -> Infallible {
    let every = Duration::from_millis(u64::try_from(crew.lease_ms / 3).unwrap_or(1).max(1));
    loop {
        tokio::time::sleep(every).await;
        match crew.store.renew_lease(job, &crew.name, crew.lease_ms).await {
            Ok(true) => {}
            // Done a moment ago, or taken by another worker after a lapse: the work goes on
            // and the ply check or the claim decides whose result counts.
            Ok(false) => return std::future::pending().await,
            Err(e) => tracing::warn!("ai: renewing a lease: {e:#}"),
        }
    }
}

/// Reviews every position of a claimed review's game, renewing the lease at each, and
/// stores the moves judged. The AI's moves and the analyses waiting are done between
/// positions, so a review never keeps a player or a request waiting; a worker that lost its
/// claim (its lease ran out and another worker took the review) stops.
async fn review(crew: &Crew, job: &ReviewJob) -> anyhow::Result<()> {
    let Some(game) = crew.store.game(&job.game_id).await? else {
        return Ok(());
    };
    let (positions, played) = analysis::positions(&crew.store, &game).await?;
    let mut views = Vec::with_capacity(positions.len());
    for (ply, position) in (0u32..).zip(positions) {
        while urgent_job(crew).await? {
            if !renew(crew, job, ply).await? {
                return Ok(());
            }
        }
        views.push(analysis::review_position(&crew.permits, &job.game_id, ply, position).await?);
        if !renew(crew, job, ply + 1).await? {
            return Ok(());
        }
    }
    let moves = analysis::reviewed_moves(&views, &played)?;
    crew.store.finish_review(job, &crew.name, &moves).await
}

/// Records a review's progress and renews its lease; whether the worker still holds it.
async fn renew(crew: &Crew, job: &ReviewJob, done: u32) -> anyhow::Result<bool> {
    let held = crew
        .store
        .review_progress(job, &crew.name, done, crew.lease_ms)
        .await?;
    if !held {
        tracing::info!(game = job.game_id, "review: taken over by another worker");
    }
    Ok(held)
}

/// Waits for a job written here or the next poll.
async fn idle(crew: &Crew) {
    match &crew.ready {
        Some(ready) => {
            tokio::select! {
                () = ready.notified() => {}
                () = tokio::time::sleep(crew.poll) => {}
            }
        }
        None => tokio::time::sleep(crew.poll).await,
    }
}

/// Counts the plies and tells the game's watchers (on PostgreSQL, those of every instance).
async fn announce(crew: &Crew, game_id: &str, plies: Plies) {
    crew.plies.fetch_add(
        u64::from(plies.after.saturating_sub(plies.before)),
        Ordering::Relaxed,
    );
    announce_plies(&crew.live, game_id, plies).await;
    // The AI may be to move again (a game between AIs): its job was written with the move.
    if let Some(ready) = &crew.ready {
        ready.notify_one();
    }
}

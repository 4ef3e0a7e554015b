#include "experiments/ml_audit_dpsgd/compute.h"

#include <algorithm>
#include <sstream>

#include "core/format.h"
#include "core/seeding.h"
#include "estimators/accountants/accountant.h"
#include "estimators/accountants/accountant_registry.h"
#include "mechanisms/device.h"

namespace privbench {
namespace ml_audit_dpsgd {
namespace {

uint64_t SideCode(const Side& side) {
  return (side.poison == "clipbkd" ? 1 : 2) + (side.clean ? 2 : 0);
}

// Serves the rows of a pool in order: the search draws, then the fresh ones.
SummaryDraws PoolDraws(const std::vector<double>* summaries, int64_t dim) {
  auto next = std::make_shared<int64_t>(0);
  return [summaries, dim, next](int64_t count, Rng&, std::vector<double>* out) -> Status {
    const int64_t rows = static_cast<int64_t>(summaries->size()) / dim;
    if (*next + count > rows) {
      return Error("the pool holds " + std::to_string(rows) + " models, " +
                   std::to_string(*next + count) + " requested");
    }
    out->assign(summaries->begin() + *next * dim, summaries->begin() + (*next + count) * dim);
    *next += count;
    return Status::Ok();
  };
}

// Algorithm 1 on one D pool and its D' pool (2N probe vectors each).
Status AuditOne(const Config& c, const std::vector<double>& d, const std::vector<double>& dprime,
                Rng rng, AuditRow* row) {
  const int64_t probe_dim = ProbeDim(c.test_probes);
  const std::vector<double> zd = Summaries(row->attack, d, probe_dim, &row->summary_dim);
  const std::vector<double> zp = Summaries(row->attack, dprime, probe_dim, &row->summary_dim);
  MlAuditOptions o;
  o.n = c.n;
  o.alpha = c.alpha;
  o.k = row->group;
  o.classifier = c.classifier;
  o.l2 = c.classifier_l2;
  PB_ASSIGN_OR_RETURN(row->result, RunMlAudit(row->summary_dim, PoolDraws(&zd, row->summary_dim),
                                              PoolDraws(&zp, row->summary_dim), o, rng));
  return Status::Ok();
}

}  // namespace

std::vector<std::string> SplitNames(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::vector<std::string> AttackNames() { return {"clipbkd", "clipbkd_vec", "shadow"}; }
std::vector<std::string> PairNames() { return {"append", "flip_replace"}; }
std::vector<std::string> LabelSources() { return {"nonprivate", "dp"}; }

std::string PoisonOf(const std::string& attack) {
  return attack == "shadow" ? "shadow" : "clipbkd";
}

int64_t Steps(const Config& c, int64_t n) {
  return (c.epochs * n + c.batch_size - 1) / c.batch_size;
}

Result<std::vector<Calibration>> Calibrate(const Config& c) {
  PB_ASSIGN_OR_RETURN(auto rdp, MakeAccountant("rdp"));
  std::vector<Calibration> out;
  for (double eps : c.eps) {
    Calibration cal;
    cal.eps_th = eps;
    cal.q = static_cast<double>(c.batch_size) / static_cast<double>(c.n_train);
    cal.steps = Steps(c, c.n_train);
    DpSgdAccounting s;
    s.q = cal.q;
    s.steps = cal.steps;
    s.delta = c.delta;
    Result<double> sigma = CalibrateSigma(*rdp, eps, s);
    if (!sigma.ok()) return Error("eps: " + sigma.message());
    cal.sigma = *sigma;
    s.sigma = cal.sigma;
    PB_ASSIGN_OR_RETURN(AccountantResult r, rdp->Epsilon(s));
    cal.eps_rdp = r.epsilon;
    out.push_back(cal);
  }
  return out;
}

std::string Side::Name() const {
  return (clean ? "D_" : "Dprime_") + poison + "_k" + std::to_string(k);
}

std::vector<Side> Sides(const Config& c) {
  std::vector<Side> sides;
  for (const char* poison : {"clipbkd", "shadow"}) {
    bool used = false;
    for (const std::string& a : SplitNames(c.attacks)) used = used || PoisonOf(a) == poison;
    if (!used) continue;
    for (int64_t k : c.k) {
      sides.push_back({poison, k, true});
      sides.push_back({poison, k, false});
    }
  }
  return sides;
}

std::string PairOf(const Config& c, const std::string& poison) {
  return poison == "clipbkd" ? c.clipbkd_pair : "append";
}

int64_t GroupSize(const Config& c, const std::string& attack, int64_t k) {
  return PairOf(c, PoisonOf(attack)) == "flip_replace" ? 2 * k : k;
}

std::vector<Unit> Units(const Config& c) {
  std::vector<Unit> units;
  const std::vector<Side> sides = Sides(c);
  for (size_t r = 0; r < static_cast<size_t>(c.replicates); ++r) {
    for (size_t e = 0; e < c.eps.size(); ++e) {
      for (size_t s = 0; s < sides.size(); ++s) {
        for (int64_t first = 0; first < 2 * c.n; first += c.models_per_unit) {
          Unit u{r, e, s, first, std::min(c.models_per_unit, 2 * c.n - first), ""};
          u.id = "r=" + std::to_string(r) + "_eps=" + FormatDouble(c.eps[e]) + "_" +
                 sides[s].Name() + "_m=" + std::to_string(first);
          units.push_back(u);
        }
      }
    }
  }
  return units;
}

TrainSpec BaseSpec(const Config& c) {
  TrainSpec s;
  s.hidden = c.hidden;
  s.relu = c.activation == "relu";
  s.clip_norm = c.clip_norm;
  s.batch_size = c.batch_size;
  s.epochs = c.epochs;
  s.learning_rate = c.learning_rate;
  s.momentum = c.momentum;
  s.device = ParseDevice(c.device).value();  // checked by main.cc's Validate
  return s;
}

PoisonPoint Poisons::ClipBkdAt(size_t e) const {
  PoisonPoint p = clipbkd;
  p.y = clipbkd_labels.at(e).y;
  return p;
}

Result<Poisons> DesignPoisons(const AuditData& d, const Config& c,
                              const std::vector<Calibration>& cal, uint64_t seed) {
  Poisons p;
  PB_ASSIGN_OR_RETURN(
      p.clipbkd, DesignClipBkd(d, BaseSpec(c), c.clipbkd_label_models, DeriveSeed(seed, {11})));
  for (size_t e = 0; e < cal.size(); ++e) {
    if (c.clipbkd_label_from != "dp") {
      p.clipbkd_labels.push_back({p.clipbkd.y, p.clipbkd.clean_prob});
      continue;
    }
    TrainSpec spec = BaseSpec(c);
    spec.noise_multiplier = cal[e].sigma;
    PB_ASSIGN_OR_RETURN(ClipBkdLabel label,
                        DpLeastLikelyLabel(d, spec, p.clipbkd.x, c.clipbkd_label_models,
                                           DeriveSeed(seed, {13, uint64_t(e)})));
    p.clipbkd_labels.push_back(label);
  }
  ShadowOptions o;
  o.models = c.shadow_models;
  o.steps = c.shadow_steps;
  o.step = c.shadow_step;
  PB_ASSIGN_OR_RETURN(p.shadow, DesignShadow(d, BaseSpec(c), o, DeriveSeed(seed, {12})));
  return p;
}

Insertion SideInsertion(const Config& c, const Side& side, const Poisons& p, size_t e) {
  Insertion ins;
  const bool clipbkd = side.poison == "clipbkd";
  const int64_t y = clipbkd ? p.clipbkd_labels.at(e).y : p.shadow.y;
  ins.poison = clipbkd ? &p.clipbkd : &p.shadow;
  ins.k = side.k;
  ins.label = y;
  if (PairOf(c, side.poison) == "flip_replace") {
    ins.placement = Placement::kReplaceLast;
    if (side.clean) ins.label = 1 - y;
  } else if (side.clean) {
    ins.poison = nullptr;
    ins.k = 0;
  }
  return ins;
}

Result<std::vector<double>> RunUnit(const AuditData& d, const Poisons& p, const Config& c,
                                    const std::vector<Calibration>& cal, const Unit& u,
                                    uint64_t seed) {
  const Side side = Sides(c)[u.side_index];
  TrainSpec spec = BaseSpec(c);
  spec.noise_multiplier = cal[u.eps_index].sigma;
  const Insertion insertion = SideInsertion(c, side, p, u.eps_index);
  const PoisonPoint clipbkd = p.ClipBkdAt(u.eps_index);  // its probes read P_{y*}
  std::vector<double> out;
  for (int64_t j = u.first; j < u.first + u.count; ++j) {
    const uint64_t s = DeriveSeed(seed, {uint64_t(u.eps_index), SideCode(side), uint64_t(side.k),
                                         uint64_t(j), uint64_t(u.replicate)});
    PB_ASSIGN_OR_RETURN(std::vector<double> v,
                        TrainAndProbe(d, insertion, spec, clipbkd, p.shadow, s));
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

std::vector<double> Summaries(const std::string& attack, const std::vector<double>& probes,
                              int64_t probe_dim, int64_t* dim) {
  const int64_t rows = static_cast<int64_t>(probes.size()) / probe_dim;
  std::vector<double> out;
  *dim = attack == "clipbkd_vec" ? probe_dim - 1 : 1;
  for (int64_t r = 0; r < rows; ++r) {
    const double* v = probes.data() + r * probe_dim;
    if (attack == "clipbkd") {
      out.push_back(v[0] - v[1]);
    } else if (attack == "clipbkd_vec") {
      out.insert(out.end(), v, v + probe_dim - 1);
    } else {
      out.push_back(v[probe_dim - 1]);
    }
  }
  return out;
}

Result<std::vector<AuditRow>> RunAudits(const Config& c, const std::vector<Calibration>& cal,
                                        const Pools& pools, uint64_t seed) {
  const std::vector<Side> sides = Sides(c);
  std::vector<AuditRow> rows;
  for (size_t r = 0; r < static_cast<size_t>(c.replicates); ++r) {
    for (size_t e = 0; e < c.eps.size(); ++e) {
      for (const std::string& attack : SplitNames(c.attacks)) {
        for (int64_t k : c.k) {
          size_t s = 0;  // the D side; s + 1 is its D' side (Sides' order)
          while (sides[s].poison != PoisonOf(attack) || sides[s].k != k) ++s;
          AuditRow row{c.eps[e],
                       cal[e].sigma,
                       attack,
                       k,
                       GroupSize(c, attack, k),
                       PairOf(c, PoisonOf(attack)),
                       static_cast<int64_t>(r),
                       0,
                       {}};
          PB_RETURN_IF_ERROR(AuditOne(c, pools.at({r, e, s}), pools.at({r, e, s + 1}),
                                      MakeRng(seed, {21, uint64_t(e), uint64_t(s), uint64_t(r)}),
                                      &row));
          rows.push_back(std::move(row));
        }
      }
    }
  }
  return rows;
}

}  // namespace ml_audit_dpsgd
}  // namespace privbench

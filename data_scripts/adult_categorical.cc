#include "data_scripts/adult_categorical.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace privbench {
namespace {

// adult.names' value lists ("?" appended where the files use it).
const std::vector<std::vector<std::string>>& CategoricalValueLists() {
  static const std::vector<std::vector<std::string>> lists = {
      {"Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov", "State-gov",
       "Without-pay", "Never-worked", "?"},
      {"Bachelors", "Some-college", "11th", "HS-grad", "Prof-school", "Assoc-acdm", "Assoc-voc",
       "9th", "7th-8th", "12th", "Masters", "1st-4th", "10th", "Doctorate", "5th-6th", "Preschool"},
      {"Married-civ-spouse", "Divorced", "Never-married", "Separated", "Widowed",
       "Married-spouse-absent", "Married-AF-spouse"},
      {"Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial",
       "Prof-specialty", "Handlers-cleaners", "Machine-op-inspct", "Adm-clerical",
       "Farming-fishing", "Transport-moving", "Priv-house-serv", "Protective-serv", "Armed-Forces",
       "?"},
      {"Wife", "Own-child", "Husband", "Not-in-family", "Other-relative", "Unmarried"},
      {"White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"},
      {"Female", "Male"},
      {"United-States",
       "Cambodia",
       "England",
       "Puerto-Rico",
       "Canada",
       "Germany",
       "Outlying-US(Guam-USVI-etc)",
       "India",
       "Japan",
       "Greece",
       "South",
       "China",
       "Cuba",
       "Iran",
       "Honduras",
       "Philippines",
       "Italy",
       "Poland",
       "Jamaica",
       "Vietnam",
       "Mexico",
       "Portugal",
       "Ireland",
       "France",
       "Dominican-Republic",
       "Laos",
       "Ecuador",
       "Taiwan",
       "Haiti",
       "Columbia",
       "Hungary",
       "Guatemala",
       "Nicaragua",
       "Scotland",
       "Thailand",
       "Yugoslavia",
       "El-Salvador",
       "Trinadad&Tobago",
       "Peru",
       "Hong",
       "Holand-Netherlands",
       "?"}};
  return lists;
}

const char* const kCategoricalNames[] = {"workclass",  "education",     "marital-status",
                                         "occupation", "relationship",  "race",
                                         "sex",        "native-country"};
constexpr int kNativeCountry = 7;

// Index of the first edge above `value`: bins [edges[k-1], edges[k]).
int32_t BinOf(double value, const std::vector<double>& edges) {
  return static_cast<int32_t>(std::upper_bound(edges.begin(), edges.end(), value) - edges.begin());
}

const std::vector<double> kAgeEdges = {25, 35, 45, 55, 65};
const std::vector<double> kGainEdges = {1, 5000};
const std::vector<double> kLossEdges = {1};
const std::vector<double> kHoursEdges = {20, 35, 41, 50};

int32_t NativeCountryCode(const std::string& country) {
  if (country == "United-States") return 0;
  if (country == "Mexico") return 1;
  if (country == "?") return 3;
  return 2;
}

}  // namespace

CategoricalDomain AdultCategoricalDomain() {
  CategoricalDomain d;
  auto add = [&d](std::string name, std::vector<std::string> labels) {
    d.names.push_back(std::move(name));
    d.sizes.push_back(static_cast<int32_t>(labels.size()));
    d.labels.push_back(std::move(labels));
  };
  add("age", {"<25", "25-34", "35-44", "45-54", "55-64", "65+"});
  const auto& lists = CategoricalValueLists();
  for (int c = 0; c < kAdultCategoricalColumns; ++c) {
    if (c == kNativeCountry) {
      add(kCategoricalNames[c], {"United-States", "Mexico", "other", "?"});
    } else {
      add(kCategoricalNames[c], lists[static_cast<size_t>(c)]);
    }
  }
  add("capital-gain", {"0", "1-4999", "5000+"});
  add("capital-loss", {"0", "1+"});
  add("hours-per-week", {"1-19", "20-34", "35-40", "41-49", "50+"});
  add("income", {"<=50K", ">50K"});
  return d;
}

Result<CategoricalTable> DiscretiseAdult(const std::vector<AdultRecord>& records,
                                         const std::string& file_name) {
  const CategoricalDomain domain = AdultCategoricalDomain();
  const auto& lists = CategoricalValueLists();
  CategoricalTable t = EmptyTable(domain);
  t.values.reserve(records.size() * static_cast<size_t>(t.d));
  std::vector<int32_t> codes(static_cast<size_t>(t.d));
  for (size_t i = 0; i < records.size(); ++i) {
    const AdultRecord& r = records[i];
    codes[0] = BinOf(r.numeric[0], kAgeEdges);
    for (int c = 0; c < kAdultCategoricalColumns; ++c) {
      const auto& list = lists[static_cast<size_t>(c)];
      const auto it = std::find(list.begin(), list.end(), r.categorical[c]);
      if (it == list.end()) {
        return Error(file_name + " record " + std::to_string(i + 1) + ": " + kCategoricalNames[c] +
                     " '" + r.categorical[c] + "' is not in adult.names");
      }
      codes[static_cast<size_t>(1 + c)] = c == kNativeCountry
                                              ? NativeCountryCode(r.categorical[c])
                                              : static_cast<int32_t>(it - list.begin());
    }
    codes[9] = BinOf(r.numeric[3], kGainEdges);
    codes[10] = BinOf(r.numeric[4], kLossEdges);
    if (r.numeric[5] < 1) {
      return Error(file_name + " record " + std::to_string(i + 1) +
                   ": hours-per-week must be >= 1, got " + std::to_string(r.numeric[5]));
    }
    codes[11] = BinOf(r.numeric[5], kHoursEdges);
    codes[12] = static_cast<int32_t>(r.label);
    t.Append(codes);
  }
  PB_RETURN_IF_ERROR(CheckTable(t, domain, file_name));
  return t;
}

Result<AdultCategorical> LoadAdultCategorical(const AdultOptions& options) {
  PB_ASSIGN_OR_RETURN(AdultRecords records, LoadAdultRecords(options));
  AdultCategorical out;
  out.domain = AdultCategoricalDomain();
  PB_ASSIGN_OR_RETURN(out.train, DiscretiseAdult(records.train, "adult.data"));
  PB_ASSIGN_OR_RETURN(out.test, DiscretiseAdult(records.test, "adult.test"));
  out.source = std::move(records.source);
  out.checksums = std::move(records.checksums);
  return out;
}

}  // namespace privbench
